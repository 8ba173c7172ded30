-- UPDATEs of string columns (varchar(n), text, char(n)), compiled or not: values that
-- keep their size, grow, shrink, become NULL or stop being NULL, multibyte characters,
-- char(n) padding, too-long values and NOT NULL violations; alongside fixed-width
-- columns in the same statement, as point updates (ApplyRowUpdate, with and without
-- RETURNING INTO, before and after the publish point) and as range updates. TPC-C
-- Payment's c_data pattern (prepend when a flag says so, else keep) is one of them.
CREATE TABLE acct (
  id integer PRIMARY KEY,
  credit char(2) NOT NULL,
  tag char(4),
  name varchar(12) NOT NULL,
  note text,
  hist varchar(40),
  bal numeric(10, 2) NOT NULL,
  cnt integer NOT NULL
);

-- Payment's pattern: a point read-modify-write after everything that can abort.
CREATE PROCEDURE pay(p_id integer, p_amt numeric) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct
     SET bal = bal - p_amt,
         cnt = cnt + 1,
         hist = CASE WHEN credit = 'BC' THEN substr(format('%s:%s|', p_id, p_amt) || hist, 1, 40) ELSE hist END
   WHERE id = p_id;
END $$;

-- Renames, with the name returned: RETURNING INTO makes the body wait for the update.
CREATE FUNCTION rename(p_id integer, p_name varchar) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_old integer;
  v_name text;
BEGIN
  UPDATE acct SET name = p_name, cnt = cnt + 1 WHERE id = p_id RETURNING name, cnt INTO v_name, v_old;
  IF NOT FOUND THEN
    RETURN 'no ' || p_id;
  END IF;
  RETURN v_name || '#' || v_old;
END $$;

-- Notes: NULL, empty, same size, longer, multibyte; the tag char(4) gets short values
-- (blank-padded) and same-size ones.
CREATE PROCEDURE annotate(p_id integer, p_note text, p_tag text) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET note = p_note, tag = p_tag, bal = bal + 1 WHERE id = p_id;
END $$;

-- A range update that rewrites strings of several rows, sizes changing or not.
CREATE FUNCTION stamp(p_lo integer, p_hi integer, p_mark text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  UPDATE acct SET note = CASE WHEN note IS NULL THEN p_mark ELSE left(note || p_mark, 6) END,
                  hist = CASE WHEN cnt % 2 = 0 THEN hist ELSE NULL END
   WHERE id >= p_lo AND id <= p_hi;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;

INSERT INTO acct VALUES
  (1, 'GC', 'ab', 'ann', NULL, '', 100, 0), (2, 'BC', NULL, 'bob', 'x', 'start', 100, 0),
  (3, 'BC', 'abcd', 'cy', 'é', NULL, 50, 0), (4, 'GC', 'z', 'dee', 'long note here', 'h', 0, 0),
  (5, 'BC', NULL, 'eve', '', 'ü€', 10, 0), (6, 'GC', NULL, 'fay', NULL, NULL, 5, 0),
  (7, 'BC', 'q', 'gus', 'n7', 'seven', 70, 0), (8, 'GC', 'r', 'hal', 'n8', 'eight', 80, 0);

CALL pay(2, 3.5);
CALL pay(1, 1);
SELECT rename(3, 'cyd');
SELECT rename(3, 'cyd');
SELECT rename(9, 'nobody');
SELECT rename(4, 'a name too long');
SELECT rename(4, NULL);
CALL annotate(1, 'é€', 'wxyz');
CALL annotate(1, NULL, NULL);
CALL annotate(2, '', 'é');
CALL annotate(9, 'nothing', 'x');
CALL annotate(3, 'tagged', 'toolong');
SELECT stamp(1, 4, '+');
--- calls: string_updates 300
SELECT id, credit, tag, length(tag) AS tag_len, name, note, hist, bal, cnt FROM acct ORDER BY id;

-- The same statements ad hoc.
UPDATE acct SET note = note || '!', bal = bal * 2 WHERE id = 5;
UPDATE acct SET name = NULL WHERE id = 6;
UPDATE acct SET tag = 'abcde' WHERE id = 6;
UPDATE acct SET tag = 'é', note = NULL WHERE id = 6;
UPDATE acct SET hist = repeat('x', 41) WHERE id = 7;
SELECT id, tag, note, hist, bal FROM acct WHERE id IN (5, 6, 7) ORDER BY id;

-- Casts between varchar and text hand compiled code the value itself, not a copy: values
-- swapped through SELECT or RETURNING ... INTO must still be read before either is set.
-- An explicit varchar(n) or numeric(p,s) cast keeps cutting or rounding when the target
-- variable has no modifier.
CREATE FUNCTION swap_names(a varchar, b varchar) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x varchar := a;
  y varchar := b;
  u varchar(3) := 'uuu';
  w text := 'w';
BEGIN
  SELECT y::text, x::text INTO x, y;
  SELECT w::varchar(3), u::text INTO u, w;
  RETURN x || ',' || y || ',' || u || ',' || w;
END $$;
-- The same swap through a point read: the row's outputs are all computed first too.
CREATE FUNCTION swap_read(a varchar, b varchar, p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x varchar := a;
  y varchar := b;
  z text;
BEGIN
  SELECT y, x::text, name INTO x, y, z FROM acct WHERE id = p_id;
  RETURN x || ',' || y || ',' || coalesce(z, 'none');
END $$;
SELECT swap_read('p', 'q', 1);
SELECT swap_read('p', 'q', 99);
SELECT swap_names('p', 'q');
SELECT swap_names('ppppp', NULL);
SELECT swap_names('pp', 'qqqqqqqq');

CREATE FUNCTION swap_returning(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x text := 'xx';
  y varchar := 'yy';
BEGIN
  UPDATE acct SET note = y WHERE id = p_id RETURNING x::text, name::text INTO y, x;
  RETURN x || ',' || y;
END $$;
SELECT swap_returning(1);
SELECT swap_returning(2);

CREATE FUNCTION cut(a text, OUT p varchar, OUT q text, OUT r numeric) LANGUAGE plpgsql AS $$
BEGIN
  p := a;
  q := p::text || '!';
  p := q::varchar(2);
  q := p::text;
  r := length(a)::numeric / 3;
  r := r::numeric(4, 1);
END $$;
SELECT * FROM cut('abc');
SELECT * FROM cut('ébcdefg');
