/**
 * Blobs in an S3-compatible object store (AWS S3, MinIO, Ceph, Garage, a cloud's S3 API), for servers that run as
 * several processes or machines: the same BlobDriver as the filesystem one, bytes exactly as given (already
 * encrypted by storage/encrypted-blob-store.ts), under an optional key prefix so one bucket can hold several
 * installations. The provider's own server-side encryption is passed through when set, on top of ours.
 *
 * Changing a stored blob (rotate-key) uses a conditional write on the ETag that was read, so a blob the retention
 * sweep deleted meanwhile is not re-created and one replaced meanwhile is read again. Providers that ignore
 * If-Match (older MinIO, test servers) fall back to a check just before the write, which narrows the window to
 * the write itself.
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { BlobDriver } from './blob-store.js';

export type S3Settings = {
  /** Empty for AWS itself; the address of any other S3-compatible service. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Absent: the SDK's own chain (environment, instance role, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Addresses like endpoint/bucket/key (MinIO and most self-hosted services need it). */
  forcePathStyle: boolean;
  /** Keys are stored under this prefix ('clinic-a/'); empty for the whole bucket. */
  prefix: string;
  /** Passed through to every write: 'AES256', 'aws:kms' (with kmsKeyId) or none. */
  serverSideEncryption?: 'AES256' | 'aws:kms';
  kmsKeyId?: string;
};

// Only a missing object: a missing bucket or a proxy's 404 is a misconfiguration to report, not an absent blob.
const MISSING = new Set(['NoSuchKey', 'NotFound']);
const isMissing = (err: unknown) => err instanceof S3ServiceException && MISSING.has(err.name);
const isPreconditionFailed = (err: unknown) => err instanceof S3ServiceException && (err.name === 'PreconditionFailed' || err.$metadata.httpStatusCode === 412);

/** The downloaded bytes as a Buffer without copying them. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A conditional replace gives up after this many blobs changed under it in a row. */
const REPLACE_ATTEMPTS = 5;

export function createS3BlobDriver(settings: S3Settings): BlobDriver & Required<Pick<BlobDriver, 'replaceExisting'>> & { readonly client: S3Client } {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // A service that stops answering must not hold an upload, a transcription or the retention sweep for ever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    maxAttempts: 3,
    ...(settings.endpoint
      ? {
          endpoint: settings.endpoint,
          // Other S3-compatible services may not know the SDK's newer checksums: only where an operation needs one.
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  // DeleteObjects must carry a checksum; many S3-compatible services accept only Content-MD5 for it.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      if (context.commandName === 'DeleteObjectsCommand' && request.headers && typeof request.body === 'string') {
        request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
      }
      return next(args);
    },
    { step: 'build', name: 'deleteObjectsContentMd5' },
  );
  const Bucket = settings.bucket;
  const prefix = settings.prefix;
  const objectKey = (key: string) => {
    if (!key || key.startsWith('/') || key.split('/').includes('..')) throw new Error('blob key outside the store');
    return `${prefix}${key}`;
  };
  const encryption: Pick<PutObjectCommandInput, 'ServerSideEncryption' | 'SSEKMSKeyId'> = settings.serverSideEncryption
    ? { ServerSideEncryption: settings.serverSideEncryption, ...(settings.kmsKeyId ? { SSEKMSKeyId: settings.kmsKeyId } : {}) }
    : {};

  async function getWithTag(key: string): Promise<{ data: Buffer; etag: string | undefined } | undefined> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      return { data: asBuffer(await res.Body!.transformToByteArray()), etag: res.ETag };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async function etagOf(key: string): Promise<string | undefined> {
    try {
      return (await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }))).ETag;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * Page after page from the last key seen (ListObjects with a Marker): every S3-compatible server keeps to it,
   * where some make V2 continuation tokens with ciphers current OpenSSL refuses.
   */
  async function* list(under = ''): AsyncGenerator<string> {
    let Marker: string | undefined;
    for (;;) {
      const page = await client.send(new ListObjectsCommand({ Bucket, Prefix: `${prefix}${under}`, ...(Marker ? { Marker } : {}) }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      for (const key of keys) yield key.slice(prefix.length);
      if (!page.IsTruncated || keys.length === 0) return;
      Marker = keys.at(-1);
    }
  }

  return {
    client,
    async put(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.length, ...encryption }));
    },
    get: async (key) => (await getWithTag(key))?.data,
    async readHead(key, bytes) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: `bytes=0-${Math.max(0, bytes - 1)}` }));
        // A copy of the head only: a server that ignores Range sends the whole object, which is not kept.
        return Buffer.from(asBuffer(await res.Body!.transformToByteArray()).subarray(0, bytes));
      } catch (err) {
        if (isMissing(err)) return undefined;
        // An empty object has no byte 0 to range over: S3 answers 416, some compatible servers drop the connection.
        const size = await this.size(key);
        if (size === undefined) return undefined;
        if (size === 0) return Buffer.alloc(0);
        throw err;
      }
    },
    async ping(signal) {
      // HEAD of the bucket: reachable, and these credentials may use it (the listing the store needs anyway).
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: signal });
    },
    async size(key) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }))).ContentLength;
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async deletePrefix(under) {
      // A consultation's folder, never the whole installation by mistake.
      if (!under?.endsWith('/')) throw new Error('a prefix to delete must name a folder (end with /)');
      // At most 1,000 keys per request, as S3 allows; listed again until empty, for a blob written meanwhile.
      for (let pass = 0; pass < 3; pass++) {
        let batch: string[] = [];
        let found = 0;
        const flush = async () => {
          if (!batch.length) return;
          const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
          if (res.Errors?.length) throw new Error(`${res.Errors.length} objects under ${under} could not be deleted (${res.Errors[0]!.Code ?? 'error'})`);
          batch = [];
        };
        for await (const key of list(under)) {
          batch.push(objectKey(key));
          found++;
          if (batch.length === 1000) await flush();
        }
        await flush();
        if (found === 0) return;
      }
    },
    list,
    async replaceExisting(key, transform) {
      for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt++) {
        const current = await getWithTag(key);
        if (!current) return 'missing';
        const next = await transform(current.data);
        if (!next) return 'unchanged';
        // Deleted or replaced since it was read: for a provider that ignores If-Match, this check is all there is.
        const etag = await etagOf(key);
        if (etag === undefined) return 'missing';
        if (etag !== current.etag) continue;
        try {
          await client.send(
            new PutObjectCommand({ Bucket, Key: objectKey(key), Body: next, ContentLength: next.length, IfMatch: current.etag, ...encryption }),
          );
          return 'replaced';
        } catch (err) {
          // Changed between the check and the write; a deleted one answers 404 (or 412) and is found missing next.
          if (isPreconditionFailed(err) || isMissing(err)) continue;
          throw err;
        }
      }
      throw new Error(`${key} kept changing while it was being rewritten`);
    },
  };
}
