/**
 * Which operating-system user is at the other end of a Unix socket connection, as the kernel recorded it when
 * that process connected (Linux: SO_PEERCRED; macOS and the BSDs: getpeereid). A file mode can be loosened by a
 * careless chmod or umask, a copy of the data folder or a shared group; the kernel's record cannot be forged
 * by the connecting process. Node has no API for it, so libc is called through a prebuilt FFI.
 */
import type { Socket } from 'node:net';
import koffi from 'koffi';

type PeerUidReader = (fd: number) => number | undefined;

const SOL_SOCKET = 1;
const SO_PEERCRED = 17;

function linuxReader(): PeerUidReader {
  // SO_PEERCRED is 17 on x86-64 and arm64 (another number, another option, on some other CPUs): elsewhere nobody is trusted.
  if (process.arch !== 'x64' && process.arch !== 'arm64') throw new Error(`SO_PEERCRED is not known on ${process.arch}`);
  const libc = koffi.load('libc.so.6');
  const ucred = koffi.struct('admin_socket_ucred', { pid: 'int32', uid: 'uint32', gid: 'uint32' });
  const getsockopt = libc.func('getsockopt', 'int', ['int', 'int', 'int', koffi.inout(koffi.pointer(ucred)), koffi.inout(koffi.pointer('uint32'))]);
  return (fd) => {
    // Filled with values that trust nobody, so a call that writes less (another option number on another CPU) cannot pass for root.
    const cred: { pid?: number; uid?: number; gid?: number } = { pid: 0, uid: 0xffffffff, gid: 0xffffffff };
    const size = koffi.sizeof(ucred);
    const length = [size];
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, length) !== 0 || length[0] !== size) return undefined;
    // pid 0 means the kernel recorded no peer (an unconnected socket): nothing to trust.
    return cred.pid ? cred.uid : undefined;
  };
}

function bsdReader(): PeerUidReader {
  const libc = koffi.load(process.platform === 'darwin' ? 'libSystem.B.dylib' : 'libc.so.7');
  const getpeereid = libc.func('getpeereid', 'int', ['int', koffi.out(koffi.pointer('uint32')), koffi.out(koffi.pointer('uint32'))]);
  return (fd) => {
    const uid = [0xffffffff];
    const gid = [0xffffffff];
    return getpeereid(fd, uid, gid) === 0 ? uid[0] : undefined;
  };
}

let reader: PeerUidReader | null | undefined;

function peerUidReader(): PeerUidReader | null {
  if (reader !== undefined) return reader;
  try {
    if (process.platform === 'linux') reader = linuxReader();
    else if (process.platform === 'darwin' || process.platform === 'freebsd') reader = bsdReader();
    else reader = null;
  } catch {
    // No usable libc or no prebuilt FFI for this machine: callers refuse rather than trust the file mode alone.
    reader = null;
  }
  return reader;
}

/** The connecting process's user id, or undefined when it cannot be known (which callers must treat as a refusal). */
export function peerUid(socket: Socket): number | undefined {
  // Node keeps the descriptor on its internal handle; it is there for every Unix socket on these systems.
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return undefined;
  return peerUidReader()?.(fd);
}
