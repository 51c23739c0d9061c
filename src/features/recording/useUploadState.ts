import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { queueStateFor, type QueueState } from '../../offline/chunk-queue';
import type { UploadEvent } from '../../offline/uploader';
import { onUploadEvent } from './upload-service';

export type ConnectionTrouble = 'offline' | 'overloaded' | undefined;

/** Parts of this session still on the device, and whether the last attempt hit a network or server problem. */
export function useUploadState(sessionId: string): { queue: QueueState; trouble: ConnectionTrouble } {
  const queue = useLiveQuery(() => queueStateFor(sessionId), [sessionId]) ?? { waiting: 0, failed: 0 };
  const [trouble, setTrouble] = useState<ConnectionTrouble>();
  useEffect(
    () =>
      onUploadEvent((e: UploadEvent) => {
        if (e.type === 'retrying' && e.sessionId === sessionId) setTrouble(e.reason);
        else if (e.type === 'uploaded' && e.sessionId === sessionId) setTrouble(undefined);
      }),
    [sessionId],
  );
  return { queue, trouble: queue.waiting > 0 ? trouble : undefined };
}
