import { assertSftpPrerequisites } from '../apps/api/test/sftp-server.ts';

/** Before the SFTP journey: no sshd (or no root) fails the run with what to install, once. */
export default function setup() {
  assertSftpPrerequisites();
}
