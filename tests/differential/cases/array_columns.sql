-- Array columns: text[], integer[], numeric(p,s)[], varchar(n)[], timestamptz[],
-- uuid[] and bigint[] stored and read back, their literals and text forms (quoting,
-- NULL elements, empty arrays), the array operators and functions over them, UPDATEs
-- with array_append / array_remove / subscripts in pipelined procedures and ad hoc,
-- COPY, \d, and PostgreSQL's errors.
CREATE TABLE posts (id integer PRIMARY KEY, title text NOT NULL, tags text[] NOT NULL DEFAULT '{}',
                    scores integer[], prices numeric(8,2)[], codes varchar(3)[]);
CREATE TABLE stamps (id bigint PRIMARY KEY, at timestamptz[], ids uuid[], big bigint[] DEFAULT ARRAY[1, 2]::bigint[]);

INSERT INTO posts VALUES
  (1, 'first', '{a,b,"c d"}', '{1,2,3}', '{1.5,2.25}', '{ab,cd}'),
  (2, 'second', ARRAY['x', NULL, 'y z', 'q"uote', 'back\slash', ''], ARRAY[10, NULL, -3], NULL, ARRAY['e']),
  (3, 'third', '{}', '{}', '{}', NULL),
  (4, 'fourth', DEFAULT, NULL, ARRAY[0.005, 99999.994]::numeric[], '{NULL}');
INSERT INTO stamps VALUES
  (1, ARRAY['2024-01-02 03:04:05+00', '2024-06-01 00:00:00.5+02']::timestamptz[],
      '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', DEFAULT),
  (2, '{}', ARRAY[]::uuid[], '{9223372036854775807,-9223372036854775808}'),
  (3, NULL, NULL, NULL);

CREATE FUNCTION tag_post(p_id integer, p_tag text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  v text[];
BEGIN
  UPDATE posts SET tags = array_append(tags, p_tag) WHERE id = p_id AND NOT (p_tag = ANY (tags))
    RETURNING tags INTO v;
  RETURN v;
END $$;

CREATE FUNCTION untag_post(p_id integer, p_tag text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE posts SET tags = array_remove(tags, p_tag) WHERE id = p_id;
  SELECT cardinality(tags) INTO n FROM posts WHERE id = p_id;
  RETURN n;
END $$;

CREATE FUNCTION score_post(p_id integer, p_score integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  s integer[];
BEGIN
  SELECT scores INTO s FROM posts WHERE id = p_id;
  IF s IS NULL THEN
    s := ARRAY[p_score];
  ELSE
    s := s || p_score;
  END IF;
  UPDATE posts SET scores = s, prices = COALESCE(prices, '{}') || (p_score / 4.0)::numeric(8,2) WHERE id = p_id;
  RETURN array_length(s, 1);
END $$;

CREATE FUNCTION new_post(p_id integer, p_tags text[]) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO posts (id, title, tags, scores) VALUES (p_id, 'post ' || p_id, p_tags, ARRAY[p_id, p_id * 2])
    ON CONFLICT (id) DO UPDATE SET tags = posts.tags || EXCLUDED.tags;
  RETURN (SELECT array_to_string(tags, ',', '*') FROM posts WHERE id = p_id);
END $$;

--- calls: array_columns 150
SELECT * FROM posts ORDER BY id;
SELECT * FROM stamps ORDER BY id;

-- Operators and functions over stored arrays.
SELECT id, tags[1], tags[2:3], scores[2], array_length(tags, 1), cardinality(scores), array_upper(prices, 1)
  FROM posts ORDER BY id;
SELECT id FROM posts WHERE 'b' = ANY (tags) OR tags @> '{x}' ORDER BY id;
SELECT id, tags && ARRAY['a', 'x'], scores @> ARRAY[1], scores <@ ARRAY[1, 2, 3, 10, 20] FROM posts ORDER BY id;
SELECT id, array_to_string(tags, '|', '<null>'), array_position(tags, 'b'), tags || 'z'::text FROM posts ORDER BY id;
SELECT id, unnest(tags) AS tag FROM posts ORDER BY id, tag;
SELECT p.id, t.tag, t.n FROM posts p, unnest(p.tags) WITH ORDINALITY AS t(tag, n) ORDER BY 1, 3;
SELECT tag, count(*) FROM posts, unnest(tags) AS tag GROUP BY tag ORDER BY tag;
SELECT id, big[1] + 1, array_length(at, 1), ids[1] FROM stamps ORDER BY id;
SELECT id, scores FROM posts WHERE scores = '{1,2,3}' ORDER BY id;
SELECT id, scores FROM posts ORDER BY scores NULLS FIRST, id;
SELECT array_agg(title ORDER BY title) FROM posts WHERE tags <> '{}';

-- Text forms through casts.
SELECT id, tags::text, scores::text, prices::text, codes::text FROM posts ORDER BY id;
SELECT id, at::text FROM stamps ORDER BY id;

-- Ad-hoc writes.
UPDATE posts SET tags[2] = 'B' WHERE id = 1;
UPDATE posts SET scores = scores || ARRAY[7, 8] WHERE scores IS NOT NULL;
UPDATE posts SET codes = array_prepend('zz', codes) WHERE id = 2;
INSERT INTO posts (id, title, tags) SELECT id + 100, 'copy ' || title, tags || title FROM posts WHERE id <= 2;
DELETE FROM posts WHERE 'y z' = ANY (tags) AND id > 100;
SELECT * FROM posts ORDER BY id;

UPDATE posts SET scores[1] = scores[1] * 10, codes[3] = 'new' WHERE id = 1;
UPDATE posts SET scores[1] = scores[1] * 10 WHERE id = 3;
UPDATE posts SET scores[6] = 66 WHERE id = 4;
SELECT id, scores, codes FROM posts ORDER BY id;
COPY (SELECT id, tags, scores, prices FROM posts ORDER BY id) TO STDOUT;
COPY (SELECT id, tags, codes FROM posts ORDER BY id) TO STDOUT WITH (FORMAT csv);
COPY posts (id, title, tags, scores) FROM STDIN;
60	copied	{one,"two words",NULL}	{1,2}
61	empty	{}	\N
\.
COPY posts (id, title, tags) FROM STDIN WITH (FORMAT csv);
62,csv,"{a,""b c""}"
\.
SELECT id, title, tags, scores FROM posts WHERE id >= 60 ORDER BY id;

-- Errors.
UPDATE posts SET title[1] = 'x' WHERE id = 1;
UPDATE posts SET scores[NULL] = 1 WHERE id = 1;
UPDATE posts SET scores[1] = 'x' WHERE id = 1;
INSERT INTO posts (id, title, codes) VALUES (50, 'long', '{abcd}');
INSERT INTO posts (id, title, scores) VALUES (51, 'bad', '{1,x}');
INSERT INTO posts (id, title, tags) VALUES (52, 'nulls', NULL);
INSERT INTO posts (id, title, scores) VALUES (53, 'text', ARRAY['1']);
SELECT * FROM posts WHERE id >= 50 ORDER BY id;

-- The array functions on values.
SELECT array_to_string(ARRAY['a', NULL, 'b'], ','), array_to_string(ARRAY['a', NULL, 'b'], ',', '*'),
       array_to_string(ARRAY[1.50, 2]::numeric[], '-'), array_to_string(ARRAY[true, false], ''),
       array_to_string('{}'::int[], ','), array_to_string(NULL::text[], ',');
SELECT string_to_array('a,b,,c', ','), string_to_array('a,b,,c', ',', ''), string_to_array('abc', NULL),
       string_to_array('abc', ''), string_to_array('', ','), string_to_array('x--y--', '--');
SELECT array_position(ARRAY['a', 'b', 'a'], 'a'), array_position(ARRAY['a', 'b', 'a'], 'a', 2),
       array_position(ARRAY[1, NULL], NULL), array_position(ARRAY[1, 2], 3), array_positions(ARRAY[1, 2, 1], 1),
       array_positions(ARRAY[1, 2], 5), array_position(ARRAY[1.0, 2], 2);
SELECT array_remove(ARRAY[1, 2, 1, NULL], 1), array_remove(ARRAY[1, NULL, 2], NULL), array_remove('{}'::int[], 1),
       array_replace(ARRAY[1, 2, 1], 1, 9), array_replace(ARRAY['a', NULL], NULL, 'z');
SELECT ARRAY[1, 2] @> ARRAY[1], ARRAY[1, 2] <@ ARRAY[1], ARRAY[1, 2] && ARRAY[2, 3], ARRAY[1, NULL] @> ARRAY[NULL::int],
       ARRAY[1] @> '{}', '{}' <@ ARRAY[1], ARRAY[1, 4, 3] @> ARRAY[3, 1, 3], ARRAY[NULL::int] && ARRAY[NULL::int];
SELECT array_dims(ARRAY[1, 2]), array_ndims(ARRAY[1, 2]), array_dims('{}'::int[]), array_ndims('{}'::text[]);
SELECT (ARRAY[1, 2, 3, 4])[2:3], (ARRAY[1, 2, 3])[:2], (ARRAY[1, 2, 3])[2:], (ARRAY[1, 2, 3])[5:9], (ARRAY[1, 2, 3])[0:1],
       (ARRAY[1, 2, 3])[NULL:2], (ARRAY[1, 2, 3])[3:1];
SELECT array_fill(0, ARRAY[3]), array_fill('x'::text, ARRAY[2], ARRAY[1]), array_fill(1, ARRAY[0]);
SELECT array_position(ARRAY[1], 1, NULL);
SELECT array_remove(ARRAY[1, 2], 'x');
SELECT ARRAY[1] @> ARRAY['1'::text];
SELECT array_to_string(1, ',');
