#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output and error on pipes.
///
/// What Foundation's `Process` and `Pipe` did here, without linking all of Foundation into
/// `geonews`: its ICU data and thousands of protocol conformances were mapped and scanned at
/// every start, for the one command (headlines) that runs a child.
struct ChildProcess {
    /// Why the child could not be started: the failing call and its `strerror` text.
    struct SpawnError: Error {
        let detail: String
    }

    let pid: pid_t
    private let output: Int32
    private let errors: Int32

    /// Starts `path` with `arguments` (not counting argv[0]), the environment inherited.
    static func spawn(path: String, arguments: [String]) throws(SpawnError) -> ChildProcess {
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard closedOnExec(pipe(&outputPipe), outputPipe) else { throw SpawnError(detail: "pipe: \(errorText(errno))") }
        guard closedOnExec(pipe(&errorPipe), errorPipe) else {
            let code = errno
            close(outputPipe[0])
            close(outputPipe[1])
            throw SpawnError(detail: "pipe: \(errorText(code))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies, so the child keeps only these two ends.
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw SpawnError(detail: errorText(status))
        }
        return ChildProcess(pid: pid, output: outputPipe[0], errors: errorPipe[0])
    }

    /// Reads both streams to their ends at once, so that neither can fill and stall the child,
    /// and closes them.
    func drain() -> (output: [UInt8], errors: [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while fds.contains(where: { $0.fd >= 0 }) {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[i] += chunk[..<count]
                } else if count == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1
                }
            }
        }
        for f in fds where f.fd >= 0 { close(f.fd) }
        return (collected[0], collected[1])
    }

    /// Waits for the child to end: its exit status, or the number of the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Marks both ends of a new pipe close-on-exec; false when `pipe` itself failed.
    private static func closedOnExec(_ status: Int32, _ ends: [Int32]) -> Bool {
        guard status == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
