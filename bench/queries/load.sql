-- A TPC-C database for the analytical-query comparison (bench/query_compare.py), loaded
-- by procedures so that the same script runs on PostgreSQL 15 and here: :warehouses
-- warehouses, 10 districts each, 3000 items, 300 customers and 300 orders (10 lines each)
-- per district.
\ir ../../sql/tpcc/schema.sql
CREATE PROCEDURE bench_load_items(p_items integer) LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..p_items LOOP
    INSERT INTO item VALUES (i, i, 'item-' || i, 1.00 + i % 100, CASE WHEN i % 10 = 0 THEN 'ORIGINAL' ELSE 'item' END);
  END LOOP;
END $$;
CREATE PROCEDURE bench_load_warehouse(w integer, p_items integer, p_per_district integer) LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO warehouse VALUES (w, 'w' || w, 's1', 's2', 'city', 'CA', '123451111', 0.1000, 0);
  FOR i IN 1..p_items LOOP
    INSERT INTO stock VALUES (i, w, 10 + (i * 7 + w) % 91, 'd01', 'd02', 'd03', 'd04', 'd05', 'd06', 'd07', 'd08',
                              'd09', 'd10', 0, 0, 0, 'stock');
  END LOOP;
  FOR d IN 1..10 LOOP
    INSERT INTO district VALUES (d, w, 'dist-' || d, 's1', 's2', 'city', 'CA', '543211111', 0.0500, 0, p_per_district + 1);
    FOR c IN 1..p_per_district LOOP
      INSERT INTO customer VALUES (c, d, w, 'first', 'OE', 'LAST' || (c % 100), 's1', 's2', 'city', 'NY', '987651111',
        '0000000000000000', timestamp '2024-01-01 00:00:00', CASE WHEN c % 10 = 0 THEN 'BC' ELSE 'GC' END, 50000.00,
        0.0100, -10.00, 10.00, 1, 0, 'customer data');
    END LOOP;
    FOR o IN 1..p_per_district LOOP
      -- Every third customer has no order; the last 30 orders are undelivered.
      INSERT INTO orders VALUES (o, d, w, 1 + (o * 3) % p_per_district - (o * 3) % p_per_district % 3,
                                 timestamp '2024-01-01 00:00:00', CASE WHEN o > p_per_district - 30 THEN NULL ELSE 1 END, 10, 1);
      IF o > p_per_district - 30 THEN
        INSERT INTO new_order VALUES (o, d, w);
      END IF;
      FOR l IN 1..10 LOOP
        INSERT INTO order_line VALUES (o, d, w, l, 1 + (o * 31 + l * 17 + d) % p_items, w, NULL, 5,
                                       ((o * 13 + l) % 9999) / 100.0, 'dist-info');
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
