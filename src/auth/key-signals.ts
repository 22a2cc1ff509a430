// In-process news about API keys: a revoked key's hash, so resolvers forget it at once.
import { EventEmitter } from 'node:events';

export const keySignals = new EventEmitter<{ revoked: [hash: string] }>();
keySignals.setMaxListeners(0);
