-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "scheduleCron" TEXT,
ADD COLUMN     "scheduleNextRunAt" TIMESTAMP(3),
ADD COLUMN     "schedulePaused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "scheduleTimeZone" TEXT;

-- CreateTable
CREATE TABLE "TaskScheduleOccurrence" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskScheduleOccurrence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TaskScheduleOccurrence_taskId_dueAt_key" ON "TaskScheduleOccurrence"("taskId", "dueAt");

-- CreateIndex
CREATE INDEX "Task_scheduleNextRunAt_idx" ON "Task"("scheduleNextRunAt");

-- AddForeignKey
ALTER TABLE "TaskScheduleOccurrence" ADD CONSTRAINT "TaskScheduleOccurrence_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;
