-- Keys from nextval (drawn at sequencing, in serial order) and loops of inserts under them;
-- aborted calls leave gaps in the sequence, as in PostgreSQL.
CREATE SEQUENCE order_id_seq;
CREATE TABLE orders (id bigint PRIMARY KEY, customer integer NOT NULL, lines integer NOT NULL);
CREATE TABLE order_line (order_id bigint, n integer, item integer NOT NULL, PRIMARY KEY (order_id, n));

CREATE FUNCTION place(p_customer integer, p_items integer[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint := nextval('order_id_seq');
  v_n integer := COALESCE(array_length(p_items, 1), 0);
BEGIN
  IF v_n = 0 THEN
    RAISE EXCEPTION 'order % has no lines', v_id;
  END IF;
  INSERT INTO orders VALUES (v_id, p_customer, v_n);
  FOR i IN 1..v_n LOOP
    INSERT INTO order_line VALUES (v_id, i, p_items[i]);
  END LOOP;
  RETURN v_id;
END $$;

--- calls: sequences 200
SELECT id, customer, lines FROM orders ORDER BY id;
SELECT order_id, n, item FROM order_line ORDER BY order_id, n;
