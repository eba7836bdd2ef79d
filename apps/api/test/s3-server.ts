import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * An S3-compatible server on a free loopback port, in a temporary folder (s3rver, from npm). It knows one key
 * pair (S3RVER / S3RVER) and refuses other access key IDs; it does not check SigV4 signatures, so a wrong secret
 * with the right key ID is not refused here as AWS would refuse it.
 */
export async function startS3Server(buckets: string[]) {
  const directory = await mkdtemp(join(tmpdir(), 'backsignal-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    put: (bucket: string, key: string, body: string) =>
      client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: Buffer.from(body),
          ContentLength: Buffer.byteLength(body),
        }),
      ),
    remove: (bucket: string, key: string) =>
      client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })),
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
export type S3Server = Awaited<ReturnType<typeof startS3Server>>;
