-- The SELECT-only role of question answering (migration 0003 grants it its tables). It may log in: the
-- coordinator reaches the workers as the current role, and question answering runs as this one.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'srag_reader') THEN CREATE ROLE srag_reader LOGIN; END IF;
END $$;
