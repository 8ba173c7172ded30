-- What schemas written for uuid-ossp and pgcrypto use, after CREATE EXTENSION as there:
-- uuid_generate_v4() keys drawn in pipelined calls, name-based v3 / v5 uuids, the nil
-- and namespace constants, digest() and hmac().
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE TABLE items (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), name text NOT NULL UNIQUE, slug uuid,
                    hash bytea);
CREATE FUNCTION add_item(p_name text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v uuid;
BEGIN
  INSERT INTO items (name, slug, hash)
  VALUES (p_name, uuid_generate_v5(uuid_ns_url(), 'https://example.org/' || p_name), digest(p_name, 'sha256'))
  RETURNING id INTO v;
  RETURN substr(v::text, 15, 1) = '4' AND v <> uuid_nil();
EXCEPTION WHEN unique_violation THEN
  RETURN NULL;
END $$;

--- calls: uuid_extensions 40
SELECT name, slug, encode(hash, 'hex') FROM items ORDER BY name;
SELECT count(DISTINCT id) = count(*) AS distinct_ids, count(*) FROM items;
SELECT uuid_nil(), uuid_ns_dns(), uuid_ns_url(), uuid_ns_oid(), uuid_ns_x500();
SELECT uuid_generate_v3(uuid_ns_dns(), 'www.example.com'), uuid_generate_v5(uuid_ns_dns(), 'www.example.com');
SELECT encode(digest('abc', 'sha1'), 'hex'), encode(digest('abc'::bytea, 'MD5'), 'hex'),
       encode(hmac('data', 'key', 'sha256'), 'hex'), encode(hmac('data'::bytea, 'key'::bytea, 'sha1'), 'hex');
SELECT digest('x', 'nosuch');
