-- CreateIndex
CREATE INDEX "CalendarChange_op_atUtc_idx" ON "CalendarChange"("op", "atUtc");

-- CreateIndex
CREATE INDEX "CalendarChange_statusAfter_atUtc_idx" ON "CalendarChange"("statusAfter", "atUtc");
