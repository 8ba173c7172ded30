--! psql
-- \pset: every option's confirmation, the listing, abbreviations and errors.
\pset
\pset format u
\pset format a
\pset format csv
\pset format bogus
\pset format aligned
\pset border 2
\pset border
\pset columns 80
\pset columns 0
\pset csv_fieldsep ;
\pset csv_fieldsep ab
\pset expanded
\pset expanded auto
\pset expanded maybe
\pset x off
\pset fieldsep :
\pset fieldsep_zero
\pset fieldsep '|'
\pset footer
\pset footer on
\pset null '(nil)'
\pset null
\pset pager off
\pset pager always
\pset pager on
\pset pager_min_lines 3
\pset recordsep x
\pset recordsep_zero
\pset recordsep '\n'
\pset title 'My title'
\pset title
\pset tuples_only
\pset tuples_only off
\pset tuples_only maybe
\pset bogus
\a
\a
\t
\t
\t on
\t off
\x
\x auto
\x off
\x maybe
\f
\f ,
\C 'hello'
\C
\pset
