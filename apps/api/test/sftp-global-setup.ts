import { assertSftpPrerequisites } from './sftp-server.ts';

/** Before any SFTP test file: no sshd (or no root) fails the run with what to install, once. */
export default function setup() {
  assertSftpPrerequisites();
}
