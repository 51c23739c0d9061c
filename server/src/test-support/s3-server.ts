/**
 * A real S3-compatible server for the tests (s3rver, on a free port, its files in a temporary folder), with one
 * empty bucket, and the settings that point the app at it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../storage/s3-blob-driver.js';

/** A fixed master key for the tests' bucket (S3_BUCKET needs ENCRYPTION_KEY). */
const TEST_KEY = Buffer.alloc(32, 7).toString('base64');

export async function startTestS3(bucket = 'consultation-notes-test') {
  const dir = mkdtempSync(path.join(tmpdir(), 'cn-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed test credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  const settings = (prefix = ''): S3Settings => ({ endpoint, bucket, region: 'us-east-1', credentials, forcePathStyle: true, prefix });
  return {
    settings,
    /** The app's environment settings for this bucket. */
    env: (prefix = ''): Record<string, string> => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: prefix,
      ENCRYPTION_KEY: TEST_KEY,
    }),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
