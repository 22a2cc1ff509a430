-- AlterTable
ALTER TABLE "CalendarChange" ADD COLUMN     "place" BIGINT;

-- AlterTable
ALTER TABLE "DataVersion" ADD COLUMN     "place" BIGINT;

-- CreateIndex
CREATE INDEX "CalendarChange_place_id_idx" ON "CalendarChange"("place", "id");

-- Writers lock no common row. Until now every write transaction bumped the one "calendar" version
-- row at commit, once per written row, and stamped its change rows' seq under that lock: commits
-- ran one at a time. Now:
-- 1. The version is the sum of 16 shard rows. A transaction bumps one (picked by its id) once,
--    when its first deferred trigger runs at commit (a transaction-local setting stops the rest).
--    Every commit still moves the sum, and readers read all shards in one statement.
-- 2. A change row's place is its transaction's id as it is written, raised to the record's latest
--    place when that is higher: writes to one record wait for each other (row locks), and the
--    later one may hold the older id. Readers return only rows placed below every transaction
--    still running, in (place, id) order (as PgQ does). A running transaction places its rows at
--    its id or above, so nothing can appear behind a place once read.
-- Bodies are E'' strings whose semicolons are written \073: the migration runner splits scripts at every semicolon.
INSERT INTO "DataVersion" ("scope", "version") SELECT 'calendar/' || n, 0 FROM generate_series(1, 15) AS n;
CREATE OR REPLACE FUNCTION "bump_calendar_version"() RETURNS trigger LANGUAGE plpgsql AS
  E'DECLARE shard bigint\073 BEGIN IF current_setting(\'almanac.calendar_bumped\', true) = \'on\' THEN RETURN NULL\073 END IF\073 PERFORM set_config(\'almanac.calendar_bumped\', \'on\', true)\073 shard := pg_current_xact_id()::text::bigint % 16\073 UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = CASE WHEN shard = 0 THEN \'calendar\' ELSE \'calendar/\' || shard END\073 RETURN NULL\073 END';
-- The record's latest place, read through this index (the trigger's own statement sees what committed before it).
CREATE INDEX "CalendarChange_type_recordId_place_idx" ON "CalendarChange"("type", "recordId", "place");
CREATE FUNCTION "place_calendar_change"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN NEW."place" := GREATEST(pg_current_xact_id()::text::bigint, (SELECT max("place") FROM "CalendarChange" WHERE "type" = NEW."type" AND "recordId" = NEW."recordId"))\073 RETURN NEW\073 END';
CREATE TRIGGER "CalendarChange_takes_place" BEFORE INSERT ON "CalendarChange" FOR EACH ROW EXECUTE FUNCTION "place_calendar_change"();
-- Rows and the pruned place from before keep their order, below every transaction id (seq < 2^31),
-- so cursors given out before ("c1", a seq) read on: src/calendar/changes.ts maps them the same way.
UPDATE "CalendarChange" SET "place" = "seq" - 4294967296 WHERE "seq" IS NOT NULL;
UPDATE "DataVersion" SET "place" = "version" - 4294967296 WHERE "scope" = 'calendar-changes-pruned-seq';
