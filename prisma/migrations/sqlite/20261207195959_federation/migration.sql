-- CreateTable
CREATE TABLE "FederationKey" (
    "algorithm" TEXT NOT NULL PRIMARY KEY,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "FederationFollower" (
    "actorId" TEXT NOT NULL PRIMARY KEY,
    "handle" TEXT NOT NULL,
    "inbox" TEXT NOT NULL,
    "sharedInbox" TEXT,
    "followId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "FederationDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "activityId" TEXT NOT NULL,
    "activityType" TEXT NOT NULL,
    "eventId" INTEGER NOT NULL DEFAULT 0,
    "inbox" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME
);

-- CreateTable
CREATE TABLE "FederationObject" (
    "eventId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "announcedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted" BOOLEAN NOT NULL DEFAULT false
);

-- CreateTable
CREATE TABLE "FederationCursor" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "cursor" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "FederationKv" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "expiresAt" DATETIME
);

-- CreateIndex
CREATE INDEX "FederationDelivery_status_nextAttemptAt_idx" ON "FederationDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "FederationDelivery_createdAt_idx" ON "FederationDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "FederationDelivery_activityId_inbox_key" ON "FederationDelivery"("activityId", "inbox");

-- CreateIndex
CREATE INDEX "FederationKv_expiresAt_idx" ON "FederationKv"("expiresAt");
