-- The horizon scan pages the open series by id (extendSeriesHorizons): (open, id) gives that order and
-- skips the closed series, which (open, expandedUntil) did not (SQLite read every series by its key).
-- DropIndex
DROP INDEX "EventSeries_open_expandedUntil_idx";

-- CreateIndex
CREATE INDEX "EventSeries_open_id_idx" ON "EventSeries"("open", "id");
