-- CreateTable
CREATE TABLE "TaskScheduleOccurrence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TaskScheduleOccurrence_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" INTEGER NOT NULL,
    "task" TEXT NOT NULL,
    "name" TEXT,
    "agent" TEXT NOT NULL,
    "tools" TEXT NOT NULL DEFAULT '[]',
    "options" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'active',
    "webhookUrl" TEXT,
    "webhookKeyId" INTEGER,
    "secrets" TEXT,
    "keyId" INTEGER,
    "scheduleCron" TEXT,
    "scheduleTimeZone" TEXT,
    "schedulePaused" BOOLEAN NOT NULL DEFAULT false,
    "scheduleNextRunAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Task_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("agent", "createdAt", "id", "keyId", "name", "options", "ownerId", "secrets", "status", "task", "tools", "webhookKeyId", "webhookUrl") SELECT "agent", "createdAt", "id", "keyId", "name", "options", "ownerId", "secrets", "status", "task", "tools", "webhookKeyId", "webhookUrl" FROM "Task";
DROP TABLE "Task";
ALTER TABLE "new_Task" RENAME TO "Task";
CREATE INDEX "Task_ownerId_createdAt_idx" ON "Task"("ownerId", "createdAt");
CREATE INDEX "Task_keyId_idx" ON "Task"("keyId");
CREATE INDEX "Task_scheduleNextRunAt_idx" ON "Task"("scheduleNextRunAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "TaskScheduleOccurrence_taskId_dueAt_key" ON "TaskScheduleOccurrence"("taskId", "dueAt");
