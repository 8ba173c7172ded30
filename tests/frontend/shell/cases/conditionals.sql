--! psql
-- \if / \elif / \else / \endif, nesting, errors, and skipped input.
\if true
  \echo in true branch
\elif true
  \echo never
\else
  \echo never
\endif
\if false
  \echo never
  select 'skipped' as s;
  \bogus_but_skipped
\elif on
  \echo elif taken
  \if off
    \echo never
  \else
    \echo nested else
  \endif
\else
  \echo never
\endif
\set flag 0
\if :flag
  \echo never
\else
  \echo flag is false
\endif
\if maybe
  \echo after a bad \if the branch counts as false
\endif
\else
\endif
\elif true
\if true
\else
\else
\endif
\if true
\echo unclosed at end of file
