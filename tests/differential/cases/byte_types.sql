-- uuid, bytea and numeric without a precision (or wider than 18 digits): as columns,
-- primary keys, unique keys and arrays, in pipelined procedures and ad hoc; their text
-- forms, casts, operators, functions and errors.
CREATE TABLE accounts (id uuid PRIMARY KEY, owner text NOT NULL, balance numeric NOT NULL DEFAULT 0,
                       big numeric(30,4), avatar bytea, token uuid UNIQUE);
CREATE TABLE blobs (k bytea PRIMARY KEY, v text);
CREATE TABLE amounts (n numeric PRIMARY KEY, label text);
CREATE TABLE opened (n integer PRIMARY KEY, id uuid NOT NULL DEFAULT gen_random_uuid(), owner text);

INSERT INTO accounts (id, owner, balance, big, avatar, token) VALUES
  ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'ann', 10.5, 12345678901234567890123456.1234, '\xdeadbeef', NULL),
  ('{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12}', 'bob', 0, NULL, 'abc\000def', 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  ('a0eebc999c0b4ef8bb6d6bb9bd380a13', 'cy', -3.25, -0.0001, NULL, NULL),
  ('a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a14', 'dee', 1e20, 99999999999999999999999999.9999, '\x', NULL);
INSERT INTO blobs VALUES ('\x00', 'zero'), ('\x0001', 'zero-one'), ('\xff', 'ff'), ('', 'empty');
INSERT INTO amounts VALUES (1.5, 'a'), (-0.001, 'b'), (12345678901234567890.5, 'c'), (0, 'z');

CREATE FUNCTION deposit(p_id uuid, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v numeric;
BEGIN
  UPDATE accounts SET balance = balance + p_amount, big = COALESCE(big, 0) + p_amount * 1000000000000
   WHERE id = p_id RETURNING balance INTO v;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no account %', p_id;
  END IF;
  RETURN v;
END $$;

CREATE FUNCTION tag(p_k bytea, p_v text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v text;
BEGIN
  INSERT INTO blobs (k, v) VALUES (p_k, p_v) ON CONFLICT (k) DO UPDATE SET v = blobs.v || '+' || EXCLUDED.v;
  SELECT b.v INTO v FROM blobs b WHERE b.k = p_k;
  RETURN encode(p_k, 'hex') || ':' || v || ':' || md5(p_k) || ':' || length(p_k || '\x00'::bytea);
END $$;

CREATE FUNCTION put_amount(p_n numeric, p_label text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v numeric;
BEGIN
  -- 1.5 and 1.50 are one key: the second one updates the first one's row.
  INSERT INTO amounts VALUES (p_n, p_label) ON CONFLICT (n) DO UPDATE SET label = amounts.label || EXCLUDED.label
    RETURNING n INTO v;
  RETURN v;
END $$;

CREATE FUNCTION set_token(p_id uuid, p_token uuid) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts SET token = p_token WHERE id = p_id;
  RETURN p_token::text;
EXCEPTION WHEN unique_violation THEN
  RETURN 'taken ' || p_token::text;
END $$;

CREATE FUNCTION open_account(p_n integer, p_owner text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v uuid := gen_random_uuid();
BEGIN
  INSERT INTO opened (n, owner) VALUES (p_n, p_owner);
  -- A version 4 uuid: its 13th hex digit is 4, its 17th one of 8, 9, a, b.
  RETURN substr(v::text, 15, 1) = '4' AND substr(v::text, 20, 1) IN ('8', '9', 'a', 'b');
END $$;

CREATE FUNCTION touch_all(p_ids uuid[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE accounts a SET balance = a.balance + 1 FROM unnest(p_ids) AS u(i) WHERE a.id = u.i;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;

--- calls: byte_types 160
SELECT id, owner, balance, big, avatar, token FROM accounts ORDER BY id;
SELECT k, v, length(k), octet_length(k) FROM blobs ORDER BY k;
SELECT n, label FROM amounts ORDER BY n;
SELECT n, owner, substr(id::text, 15, 1) AS version FROM opened ORDER BY n;
SELECT count(DISTINCT id) = count(*) AS distinct_ids FROM opened;

-- Point reads by keys of another spelling or scale.
SELECT owner FROM accounts WHERE id = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11';
SELECT owner FROM accounts WHERE id IN ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13') ORDER BY 1;
SELECT n, label FROM amounts WHERE n = 1.50;
SELECT n, label FROM amounts WHERE n = 12345678901234567890.50;
SELECT n FROM amounts WHERE n > 1 ORDER BY n;
SELECT v FROM blobs WHERE k = '\x0001';
SELECT v FROM blobs WHERE k > '\x00' ORDER BY k;
SELECT a.owner, b.v FROM accounts a JOIN blobs b ON b.k = a.avatar ORDER BY 1;

-- Text forms and casts.
SELECT 'a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11'::uuid, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid;
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS same,
       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid < 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS less;
SELECT id::text, upper(id::text), length(id::text), id::varchar(8) FROM accounts ORDER BY id LIMIT 2;
SELECT ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, NULL], '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid[];
SELECT '\x4142'::bytea, 'AB'::bytea, 'a\\b'::bytea, 'a\101\000'::bytea, '\x41 42'::bytea, ''::bytea;
SELECT '\x01'::bytea || '\x02'::bytea, '\x01'::bytea || 'x', 'x' || '\x02'::bytea, '\x01'::bytea || 'x'::text;
SELECT '\x01'::bytea < '\x0100'::bytea, '\x02'::bytea > '\x0100'::bytea, '\x00'::bytea = '\x00'::bytea;
SELECT 'hello'::text::bytea, '\x68656c6c6f'::bytea::text;
SELECT encode('\x00ff10'::bytea, 'hex'), encode('hello'::bytea, 'base64'), encode('\x00ff5c41'::bytea, 'escape'),
       encode('abc'::bytea, 'HEX');
SELECT decode('00ff10', 'hex'), decode('aGVsbG8=', 'base64'), decode('a\\b\101', 'escape'), decode(' 00 ff ', 'hex');
SELECT encode(decode(repeat('ab', 60), 'hex'), 'base64');
SELECT md5('hello'), md5('hello'::bytea), md5(''), sha256('abc'::bytea), sha224(''::bytea);
SELECT sha512('abc'::bytea) = decode('ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f', 'hex');
SELECT length('\x0001'::bytea), octet_length('abc'::bytea), get_byte('\x0102'::bytea, 1), length('héllo');
SELECT convert_to('héllo', 'UTF8'), convert_from('\x68c3a96c6c6f', 'utf8'), convert_from(convert_to('x', 'UTF-8'), 'UTF8');

-- numeric of any precision.
SELECT 1.5::numeric = 1.50::numeric AS same, 12345678901234567890.123::numeric * 1000 AS wide;
SELECT sum(balance), max(big), min(big), sum(big) FROM accounts;
SELECT owner, big * 2, big / 3, round(big, 1) FROM accounts WHERE big IS NOT NULL ORDER BY owner;
CREATE TABLE measures (m numeric, w numeric(25,5), s numeric(3,1));
INSERT INTO measures VALUES (1.50, 1.5, 1.5), (0.000001, 123456789012345678.123456, -9.9), (NULL, NULL, NULL), (-7, 0, 0.04);
SELECT m, w, s FROM measures ORDER BY m NULLS FIRST;
UPDATE measures SET m = m * 3, w = w + 0.000005 WHERE m IS NOT NULL;
SELECT m, w FROM measures ORDER BY m NULLS FIRST;
SELECT m, count(*) FROM (VALUES (1.5::numeric), (1.50), (2)) v(m) GROUP BY m ORDER BY m;

-- Errors.
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g'::uuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-'::uuid;
SELECT 'a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11'::uuid;
SELECT '\x4'::bytea;
SELECT '\xzz'::bytea;
SELECT 'a\b'::bytea;
SELECT decode('zz', 'hex');
SELECT decode('aGVsbG8', 'base64');
SELECT decode('aGV$', 'base64');
SELECT encode('x'::bytea, 'foo');
SELECT get_byte('\x01'::bytea, 1);
SELECT convert_from('\xff', 'UTF8');
SELECT convert_to('x', 'no_such_encoding');
INSERT INTO accounts (id, owner, big) VALUES ('c0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'x', 123456789012345678901234567.0);
INSERT INTO accounts (id, owner) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'dup');
UPDATE accounts SET token = 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' WHERE owner = 'ann';
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid + 1;
SELECT length(1::bytea);
COPY (SELECT * FROM blobs ORDER BY k) TO STDOUT;
COPY (SELECT id, avatar FROM accounts ORDER BY id) TO STDOUT WITH (FORMAT csv);
