-- json and jsonb: columns (jsonb also as a key), their text forms, the operators, the
-- builders, to_json, the jsonb functions and casts, in pipelined procedures and ad hoc;
-- PostgreSQL's parse errors with their DETAIL and CONTEXT.
CREATE TABLE docs (id integer PRIMARY KEY, body jsonb NOT NULL DEFAULT '{}', raw json, tags jsonb);
CREATE TABLE events (id bigint PRIMARY KEY, payload jsonb);

INSERT INTO docs VALUES
  (1, '{"name": "ann", "age": 31, "tags": ["a", "b"], "addr": {"city": "Oslo", "zip": "0150"}}',
      '{"b": 1,  "a": [1, 2.50], "a": "dup"}', '["x"]'),
  (2, '{"name":"bob","age":null,"score":1.50,"n":1e2}', '[1, "two", {"three": 3}, null, true]', NULL),
  (3, '[1, 2, 3]', '"just a string"', '{"k": "v"}'),
  (4, '"scalar"', '42', '[]'),
  (5, '{}', 'null', '{"nested": {"deeper": [1, {"x": null}]}}');

CREATE FUNCTION bump(p_id integer, p_by integer) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v jsonb;
BEGIN
  UPDATE docs SET body = jsonb_set(body, '{count}', to_jsonb(COALESCE((body->>'count')::integer, 0) + p_by))
   WHERE id = p_id AND jsonb_typeof(body) = 'object' RETURNING body INTO v;
  RETURN v;
END $$;

CREATE FUNCTION tag_doc(p_id integer, p_tag text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  UPDATE docs SET tags = COALESCE(tags, '[]'::jsonb) || to_jsonb(p_tag)
   WHERE id = p_id AND (tags IS NULL OR jsonb_typeof(tags) = 'array');
  RETURN FOUND;
END $$;

CREATE FUNCTION log_event(p_id bigint, p_kind text, p_amount numeric, p_ok boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v text;
BEGIN
  INSERT INTO events VALUES (p_id, jsonb_build_object('kind', p_kind, 'amount', p_amount, 'ok', p_ok,
                                                      'items', jsonb_build_array(p_id, p_kind)))
    ON CONFLICT (id) DO UPDATE SET payload = events.payload || jsonb_build_object('again', p_kind);
  SELECT payload->>'kind' INTO v FROM events WHERE id = p_id;
  RETURN v || ' ' || json_build_object('id', p_id, 'ok', p_ok)::text;
END $$;

--- calls: json_types 120
SELECT id, body, raw, tags FROM docs ORDER BY id;
SELECT id, payload FROM events ORDER BY id;

-- Operators.
SELECT id, body->'name', body->>'name', body->'age', body->>'age', body->'tags'->0, body->'tags'->>-1,
       body#>'{addr,city}', body#>>'{addr,zip}', body->'missing', body->1
  FROM docs ORDER BY id;
SELECT id, raw->'a', raw->>'b', raw->2, raw->>1, raw#>'{2,three}', raw#>>'{}' FROM docs ORDER BY id;
SELECT id, jsonb_typeof(body), json_typeof(raw) FROM docs ORDER BY id;
SELECT id FROM docs WHERE body @> '{"name": "ann"}';
SELECT id FROM docs WHERE body ? 'name' ORDER BY id;
SELECT id, body ?| ARRAY['age', 'zzz'], body ?& ARRAY['age', 'name'], body ? 'scalar' FROM docs ORDER BY id;
SELECT '{"a":1, "b":2}'::jsonb @> '{"b":2}', '[1,2,[3,4]]'::jsonb @> '[[3]]', '[1,2]'::jsonb @> '1',
       '{"a":{"b":1,"c":2}}'::jsonb @> '{"a":{"c":2}}', '{"a":1}'::jsonb <@ '{"a":1,"b":2}',
       '{"a":[1,2]}'::jsonb @> '{"a":1}', '[1.0]'::jsonb @> '[1]';
SELECT '{"a":1}'::jsonb || '{"b":2}', '[1]'::jsonb || '[2,3]', '{"a":1}'::jsonb || '[2]', '1'::jsonb || '2'::jsonb,
       '{"a":1}'::jsonb || '{"a":"over"}';
SELECT '{"a":1,"b":2}'::jsonb - 'a', '["a","b","a"]'::jsonb - 'a', '[1,2,3]'::jsonb - 1, '[1,2,3]'::jsonb - -1;

-- Text forms.
SELECT '{"b":1,"a":2,"aa":3,"a":4}'::jsonb, '{"x": [1.50, 1e2, -0.0, 2E-3, 0.1e1]}'::jsonb,
       '  [ 1 , "a\"b\\c\n/" ]  '::jsonb;
SELECT '{"a": "\u00e9\u263a"}'::jsonb, '"\ud83d\ude00"'::jsonb, '"tab\there"'::jsonb;
SELECT '{"b": 1,  "a": 2}'::json, '{"b": 1,  "a": 2}'::json::jsonb, '{"a":1}'::jsonb::json, '{"a":1}'::jsonb::text;

-- Functions.
SELECT jsonb_set('{"a":{"b":1}}', '{a,b}', '2'), jsonb_set('{"a":1}', '{c}', '"new"'),
       jsonb_set('{"a":1}', '{c}', '3', false), jsonb_set('[1,2,3]', '{1}', '"x"'), jsonb_set('[1,2]', '{9}', '9'),
       jsonb_set('[1,2]', '{-9}', '0'), jsonb_set('{"a":1}', '{}', '5');
SELECT jsonb_build_object('a', 1, 'b', 'two', 'c', NULL, 'd', true, 'e', 1.50, 'f', ARRAY[1,2]),
       json_build_object('a', 1, 'b', 'x', 'c', '{"n": 1}'::json), jsonb_build_array(1, 'a', NULL, false),
       json_build_array(), json_build_object(), json_build_array(1, 'two', 2.50);
SELECT to_jsonb('x'::text), to_json(3.10), to_jsonb(ARRAY['a','b']), to_json(ARRAY[1,NULL,3]),
       to_json('2024-01-02 03:04:05'::timestamp), to_jsonb('2024-01-02 03:04:05.5+00'::timestamptz),
       to_json('2024-01-02'::date), to_json(true), to_jsonb('a"b'::varchar), to_json(NULL::integer);
SELECT jsonb_array_length('[1,2,[3]]'), json_array_length('[]'),
       jsonb_strip_nulls('{"a":null,"b":{"c":null,"d":1},"e":[null]}');
SELECT jsonb_pretty('{"a": [1, {"b": null}], "c": {}, "d": []}');
SELECT (body->>'age')::integer + 1, (body->'age')::integer, (body->'addr'->>'zip')::integer FROM docs WHERE id = 1;
SELECT '1.5'::jsonb::numeric, '3'::jsonb::integer, 'true'::jsonb::boolean, '2.5'::jsonb::float8, '2.5'::jsonb::integer;
SELECT body->>'name' AS name, count(*) FROM docs WHERE jsonb_typeof(body) = 'object' GROUP BY 1 ORDER BY 1;
SELECT id FROM docs WHERE body->>'name' = 'bob';
SELECT id, payload->'items' FROM events WHERE payload @> '{"ok": true}' ORDER BY id;

-- Aggregates and set-returning functions.
SELECT json_agg(id ORDER BY id), jsonb_agg(n ORDER BY n) FROM (SELECT id, body->>'name' AS n FROM docs) d;
SELECT json_agg(x ORDER BY x), jsonb_agg(x ORDER BY x DESC), json_agg(DISTINCT x) FROM (VALUES (3), (NULL), (1), (3)) v(x);
SELECT json_agg(id) FROM docs WHERE id > 100;
SELECT jsonb_typeof(body), json_agg(id ORDER BY id DESC) FROM docs GROUP BY 1 ORDER BY 1;
SELECT json_agg(t ORDER BY t), jsonb_agg(t ORDER BY t) FROM (VALUES ('b"c'), ('a')) v(t);
SELECT json_object_agg(id, body->'name' ORDER BY id), jsonb_object_agg('k' || id, raw) FROM docs;
SELECT json_object_agg(k, v), jsonb_object_agg(k, v) FROM (VALUES ('b', 1), ('a', NULL), ('b', 3)) x(k, v);
SELECT jsonb_typeof(body), jsonb_object_agg(id, id * 1.5) FILTER (WHERE id > 1) FROM docs GROUP BY 1 ORDER BY 1;
SELECT json_object_agg(id, id) FROM docs WHERE id > 100;
SELECT json_object_agg(d, d), jsonb_object_agg(d::timestamp, true) FROM (VALUES (DATE '2024-01-02')) x(d);
SELECT jsonb_object_agg(k, v) FROM (VALUES (NULL::text, 1)) x(k, v);
SELECT * FROM jsonb_array_elements('[1, "a", {"b": [2]}, null]');
SELECT value FROM json_array_elements('[1,  "a" , {"b":[2]}]') AS e;
SELECT * FROM jsonb_array_elements_text('[1, "a", null, {"b": 2}]');
SELECT jsonb_array_elements('[1,2]'), jsonb_array_elements_text('["x","y"]');
SELECT * FROM jsonb_object_keys('{"b":1,"a":2,"aa":3}');
SELECT json_object_keys('{"b":1,"a":2,"b":3}');
SELECT * FROM jsonb_each('{"a":1,"b":[true],"c":null}');
SELECT key, value FROM json_each_text('{"a":1,"b":"x","c":null}') ORDER BY key;
SELECT d.id, e.value FROM docs d, jsonb_array_elements(d.tags) e WHERE jsonb_typeof(d.tags) = 'array'
 ORDER BY d.id, e.value::text;
SELECT d.id, k.key FROM docs d CROSS JOIN LATERAL jsonb_each(d.body) k WHERE jsonb_typeof(d.body) = 'object'
 ORDER BY 1, 2;
SELECT count(*) FROM events e, jsonb_each(e.payload) p WHERE p.key = 'kind';
SELECT * FROM jsonb_array_elements('{"a":1}');
SELECT * FROM jsonb_object_keys('[1]');
SELECT * FROM json_each('1');
SELECT * FROM jsonb_each('[1]');

-- jsonb as a key: its canonical text, so key order and spacing do not matter.
CREATE TABLE by_doc (d jsonb PRIMARY KEY, n integer);
INSERT INTO by_doc VALUES ('{"a":1,"b":2}', 1);
INSERT INTO by_doc VALUES ('{"b": 2, "a": 1}', 2);
SELECT n FROM by_doc WHERE d = '{"b":2,"a":1}';

-- Errors.
SELECT '{"a":1'::jsonb;
SELECT '{"a" 1}'::json;
SELECT '[1,2,]'::jsonb;
SELECT '{"a":1,}'::jsonb;
SELECT '{1:2}'::jsonb;
SELECT 'nul'::jsonb;
SELECT '{"a":01}'::jsonb;
SELECT '"abc'::json;
SELECT '{"a":1} x'::jsonb;
SELECT '{"a":"\q"}'::jsonb;
SELECT '"\u00zz"'::jsonb;
SELECT '"\u0000"'::jsonb;
SELECT E'"a\tb"'::jsonb;
SELECT '1'::jsonb || 'x';
SELECT '"x"'::jsonb::integer;
SELECT '{"a":1}'::jsonb::numeric;
SELECT 'null'::jsonb::boolean;
SELECT jsonb_array_length('{"a":1}');
SELECT jsonb_array_length('1');
SELECT '1'::jsonb - 'a';
SELECT '{"a":1}'::jsonb - 1;
SELECT jsonb_set('1', '{a}', '1');
SELECT json_build_object('a');
SELECT json_build_object(NULL, 1);
SELECT to_json('abc');
SELECT '{"a":1}'::json = '{"a":1}'::json;
SELECT raw FROM docs WHERE raw @> '{}';
