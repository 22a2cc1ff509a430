-- Search (WordPress's `LIKE '%term%'` on title, excerpt and content) with an index, so that a rare
-- term does not read every event: an FTS5 table with the trigram tokenizer indexes every
-- three-character substring of the three columns, kept in step with "Event" by triggers.
-- The list still applies the LIKE itself; the index only narrows the rows it looks at.
-- A later migration that redefines "Event" (Prisma copies it into a new table) drops these
-- triggers: recreate them there (test/rest/search-index.test.ts fails otherwise).
CREATE VIRTUAL TABLE "EventSearch" USING fts5("title", "excerpt", "content", content = 'Event', content_rowid = 'id', tokenize = 'trigram');
INSERT INTO "EventSearch" ("EventSearch") VALUES ('rebuild');
CREATE TRIGGER "Event_insert_indexes_search" AFTER INSERT ON "Event" BEGIN
  INSERT INTO "EventSearch" ("rowid", "title", "excerpt", "content") VALUES (new."id", new."title", new."excerpt", new."content");
END;
CREATE TRIGGER "Event_delete_indexes_search" AFTER DELETE ON "Event" BEGIN
  INSERT INTO "EventSearch" ("EventSearch", "rowid", "title", "excerpt", "content") VALUES ('delete', old."id", old."title", old."excerpt", old."content");
END;
CREATE TRIGGER "Event_update_indexes_search" AFTER UPDATE OF "title", "excerpt", "content" ON "Event" BEGIN
  INSERT INTO "EventSearch" ("EventSearch", "rowid", "title", "excerpt", "content") VALUES ('delete', old."id", old."title", old."excerpt", old."content");
  INSERT INTO "EventSearch" ("rowid", "title", "excerpt", "content") VALUES (new."id", new."title", new."excerpt", new."content");
END;
