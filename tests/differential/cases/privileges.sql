-- GRANT / REVOKE and OWNER TO, as schema scripts and pg_dump write them: accepted without
-- effect (one user owns everything here); what they name must exist.
CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL);
CREATE SEQUENCE acct_seq;
CREATE VIEW rich AS SELECT id FROM acct WHERE bal > 100;
CREATE FUNCTION credit(p_id integer, p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v integer;
BEGIN
  UPDATE acct SET bal = bal + p_amount WHERE id = p_id RETURNING bal INTO v;
  RETURN v;
END $$;
ALTER TABLE acct OWNER TO postgres;
ALTER TABLE public.acct_seq OWNER TO postgres;
ALTER SEQUENCE acct_seq OWNER TO postgres;
ALTER VIEW rich OWNER TO postgres;
ALTER FUNCTION credit(integer, integer) OWNER TO postgres;
ALTER FUNCTION public.credit(p_id integer, p_amount integer) OWNER TO postgres;
ALTER SCHEMA public OWNER TO postgres;
GRANT ALL ON TABLE public.acct TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON acct, rich TO postgres;
GRANT USAGE, SELECT ON SEQUENCE acct_seq TO PUBLIC;
GRANT EXECUTE ON FUNCTION credit(integer, integer) TO PUBLIC;
GRANT USAGE ON SCHEMA public TO PUBLIC;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO postgres;
REVOKE ALL ON TABLE acct FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION credit(integer, integer) FROM PUBLIC;
GRANT SELECT ON nosuch TO PUBLIC;
GRANT SELECT ON ALL TABLES IN SCHEMA nosuch TO PUBLIC;
ALTER TABLE nosuch OWNER TO postgres;
ALTER TABLE IF EXISTS nosuch OWNER TO postgres;
INSERT INTO acct VALUES (1, 100), (2, 50);
SELECT credit(1, 5);
--- calls: privileges 60
SELECT id, bal FROM acct ORDER BY id;
SELECT id FROM rich ORDER BY id;
