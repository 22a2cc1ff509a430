-- CreateTable
CREATE TABLE "CalendarChange" (
    "id" SERIAL NOT NULL,
    "seq" INTEGER,
    "type" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "op" TEXT NOT NULL,
    "statusBefore" TEXT,
    "statusAfter" TEXT,
    "authorId" INTEGER NOT NULL DEFAULT 0,
    "fields" TEXT NOT NULL DEFAULT '[]',
    "snapshot" TEXT,
    "atUtc" TEXT NOT NULL,

    CONSTRAINT "CalendarChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CalendarChange_seq_id_idx" ON "CalendarChange"("seq", "id");

-- CreateIndex
CREATE INDEX "CalendarChange_atUtc_idx" ON "CalendarChange"("atUtc");

-- The change log's writers: a row per record inserted, updated (in a column other than the bookkeeping
-- ones: modified dates, term counts) or deleted, and per event whose links change (none when the
-- event itself is being deleted: its links go by cascade after it). Bodies are E'' strings whose
-- semicolons are written \073: the migration runner splits scripts at every semicolon.
CREATE FUNCTION "record_calendar_change"() RETURNS trigger LANGUAGE plpgsql AS
  E'DECLARE old_row jsonb := CASE WHEN TG_OP <> \'INSERT\' THEN to_jsonb(OLD) END\073 new_row jsonb := CASE WHEN TG_OP <> \'DELETE\' THEN to_jsonb(NEW) END\073 row_now jsonb := COALESCE(new_row, old_row)\073 record_type text := TG_ARGV[0]\073 changed jsonb := \'[]\'\073 snap text\073 BEGIN IF record_type = \'term\' THEN record_type := CASE row_now->>\'taxonomy\' WHEN \'tribe_events_cat\' THEN \'category\' ELSE \'tag\' END\073 END IF\073 IF TG_OP = \'UPDATE\' THEN SELECT COALESCE(jsonb_agg(n.key ORDER BY n.key), \'[]\') INTO changed FROM jsonb_each(new_row) n WHERE n.key NOT IN (\'modified\', \'modifiedUtc\', \'count\') AND n.value IS DISTINCT FROM old_row->n.key\073 IF changed = \'[]\'::jsonb THEN RETURN NULL\073 END IF\073 END IF\073 IF TG_OP = \'DELETE\' AND record_type = \'event\' THEN snap := jsonb_build_object(\'id\', OLD."id", \'title\', OLD."title", \'status\', OLD."status", \'startUtc\', OLD."startUtc", \'endUtc\', OLD."endUtc", \'startLocal\', OLD."startLocal", \'endLocal\', OLD."endLocal", \'timezone\', OLD."timezone", \'allDay\', OLD."allDay", \'seriesId\', OLD."seriesId", \'recurrenceId\', OLD."recurrenceId", \'modifiedUtc\', OLD."modifiedUtc")::text\073 END IF\073 INSERT INTO "CalendarChange" ("type", "recordId", "op", "statusBefore", "statusAfter", "authorId", "fields", "snapshot", "atUtc") VALUES (record_type, (row_now->>\'id\')::int, lower(TG_OP), old_row->>\'status\', new_row->>\'status\', COALESCE((row_now->>\'authorId\')::int, 0), changed::text, snap, to_char(now() AT TIME ZONE \'UTC\', \'YYYY-MM-DD HH24:MI:SS\'))\073 RETURN NULL\073 END';
CREATE FUNCTION "record_event_link_change"() RETURNS trigger LANGUAGE plpgsql AS
  E'DECLARE link jsonb := CASE WHEN TG_OP = \'DELETE\' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END\073 changed text := TG_ARGV[0]\073 BEGIN IF changed = \'terms\' THEN SELECT CASE "taxonomy" WHEN \'tribe_events_cat\' THEN \'["categories"]\' ELSE \'["tags"]\' END INTO changed FROM "Term" WHERE "id" = (link->>\'termId\')::int\073 changed := COALESCE(changed, \'["categories","tags"]\')\073 END IF\073 INSERT INTO "CalendarChange" ("type", "recordId", "op", "statusBefore", "statusAfter", "authorId", "fields", "atUtc") SELECT \'event\', "id", \'update\', "status", "status", "authorId", changed, to_char(now() AT TIME ZONE \'UTC\', \'YYYY-MM-DD HH24:MI:SS\') FROM "Event" WHERE "id" = (link->>\'eventId\')::int\073 RETURN NULL\073 END';
CREATE TRIGGER "Event_records_change" AFTER INSERT OR UPDATE OR DELETE ON "Event" FOR EACH ROW EXECUTE FUNCTION "record_calendar_change"('event');
CREATE TRIGGER "Venue_records_change" AFTER INSERT OR UPDATE OR DELETE ON "Venue" FOR EACH ROW EXECUTE FUNCTION "record_calendar_change"('venue');
CREATE TRIGGER "Organizer_records_change" AFTER INSERT OR UPDATE OR DELETE ON "Organizer" FOR EACH ROW EXECUTE FUNCTION "record_calendar_change"('organizer');
CREATE TRIGGER "Term_records_change" AFTER INSERT OR UPDATE OR DELETE ON "Term" FOR EACH ROW EXECUTE FUNCTION "record_calendar_change"('term');
CREATE TRIGGER "EventVenue_records_change" AFTER INSERT OR UPDATE OR DELETE ON "EventVenue" FOR EACH ROW EXECUTE FUNCTION "record_event_link_change"('["venue"]');
CREATE TRIGGER "EventOrganizer_records_change" AFTER INSERT OR UPDATE OR DELETE ON "EventOrganizer" FOR EACH ROW EXECUTE FUNCTION "record_event_link_change"('["organizers"]');
CREATE TRIGGER "EventTerm_records_change" AFTER INSERT OR UPDATE OR DELETE ON "EventTerm" FOR EACH ROW EXECUTE FUNCTION "record_event_link_change"('terms');
-- Commit order: the calendar's version is bumped while committing (data_versions migration), under
-- the DataVersion row's lock held until the commit: the same function now stamps the transaction's
-- change rows with that version. Rows of transactions in progress are invisible to this UPDATE.
-- A transaction that commits later waits for the lock and gets a higher version, so readers never
-- see a higher seq before a lower one. (Every change row comes with a write to a table whose rows
-- fire this function.)
CREATE OR REPLACE FUNCTION "bump_calendar_version"() RETURNS trigger LANGUAGE plpgsql AS
  E'DECLARE stamped integer\073 BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = \'calendar\' RETURNING "version" INTO stamped\073 UPDATE "CalendarChange" SET "seq" = stamped WHERE "seq" IS NULL\073 RETURN NULL\073 END';
