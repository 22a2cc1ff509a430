-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TaskRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "detailedStatus" TEXT NOT NULL DEFAULT 'queued',
    "liveStatus" TEXT NOT NULL DEFAULT '',
    "output" TEXT,
    "dataTable" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "recoveries" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT '',
    "shareToken" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "TaskRun_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TaskRun" ("attempts", "createdAt", "dataTable", "detailedStatus", "error", "finishedAt", "heartbeatAt", "id", "liveStatus", "output", "startedAt", "status", "taskId", "workerId") SELECT "attempts", "createdAt", "dataTable", "detailedStatus", "error", "finishedAt", "heartbeatAt", "id", "liveStatus", "output", "startedAt", "status", "taskId", "workerId" FROM "TaskRun";
DROP TABLE "TaskRun";
ALTER TABLE "new_TaskRun" RENAME TO "TaskRun";
CREATE INDEX "TaskRun_status_createdAt_idx" ON "TaskRun"("status", "createdAt");
CREATE INDEX "TaskRun_detailedStatus_createdAt_idx" ON "TaskRun"("detailedStatus", "createdAt");
CREATE INDEX "TaskRun_taskId_createdAt_idx" ON "TaskRun"("taskId", "createdAt");
CREATE TABLE "new_ToolCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" TEXT NOT NULL DEFAULT '{}',
    "input" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answeredAt" DATETIME,
    CONSTRAINT "ToolCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "TaskRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ToolCall" ("answeredAt", "arguments", "createdAt", "id", "input", "name", "runId") SELECT "answeredAt", "arguments", "createdAt", "id", "input", "name", "runId" FROM "ToolCall";
DROP TABLE "ToolCall";
ALTER TABLE "new_ToolCall" RENAME TO "ToolCall";
CREATE INDEX "ToolCall_runId_idx" ON "ToolCall"("runId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
