/** The queue's defaults, apart from queue.ts so that the command line names them without loading BullMQ. */
export const DEFAULT_QUEUE = 'diaoban';
export const DEFAULT_REDIS = 'redis://127.0.0.1:6379';
