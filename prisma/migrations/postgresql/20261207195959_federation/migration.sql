-- CreateTable
CREATE TABLE "FederationKey" (
    "algorithm" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FederationKey_pkey" PRIMARY KEY ("algorithm")
);

-- CreateTable
CREATE TABLE "FederationFollower" (
    "actorId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "inbox" TEXT NOT NULL,
    "sharedInbox" TEXT,
    "followId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FederationFollower_pkey" PRIMARY KEY ("actorId")
);

-- CreateTable
CREATE TABLE "FederationDelivery" (
    "id" TEXT NOT NULL,
    "activityId" TEXT NOT NULL,
    "activityType" TEXT NOT NULL,
    "eventId" INTEGER NOT NULL DEFAULT 0,
    "inbox" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "FederationDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FederationObject" (
    "eventId" INTEGER NOT NULL,
    "announcedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "FederationObject_pkey" PRIMARY KEY ("eventId")
);

-- CreateTable
CREATE TABLE "FederationCursor" (
    "name" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,

    CONSTRAINT "FederationCursor_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "FederationKv" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "FederationKv_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "FederationDelivery_status_nextAttemptAt_idx" ON "FederationDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "FederationDelivery_createdAt_idx" ON "FederationDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "FederationDelivery_activityId_inbox_key" ON "FederationDelivery"("activityId", "inbox");

-- CreateIndex
CREATE INDEX "FederationKv_expiresAt_idx" ON "FederationKv"("expiresAt");
