-- CreateTable
CREATE TABLE "ImportJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "userId" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "cursor" TEXT NOT NULL DEFAULT '{}',
    "counts" TEXT NOT NULL DEFAULT '{}',
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT NOT NULL DEFAULT '',
    "heartbeatAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ImportedRecord" (
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "remoteId" TEXT NOT NULL,
    "localId" INTEGER NOT NULL,

    PRIMARY KEY ("source", "kind", "remoteId")
);
