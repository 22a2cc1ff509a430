-- A column with a default: added in place (no table copy).
ALTER TABLE "TaskStep" ADD COLUMN "tokens" INTEGER NOT NULL DEFAULT 0;
