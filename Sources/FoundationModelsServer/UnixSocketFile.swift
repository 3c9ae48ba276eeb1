import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a Unix domain socket listens at (`--socket PATH`). Binding
/// fails while the file exists, and a server that was killed leaves it
/// behind: a socket nobody answers on is removed first, so a restart just
/// works; one a server still answers on, or any other kind of file, is an
/// error rather than something deleted.
enum UnixSocketFile {
    /// Why the path cannot be listened on.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    static func prepare(_ path: String) throws(Unusable) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw Unusable(description: "\(path) exists and is not a socket: choose another path, or remove it")
        }
        guard !answers(path) else {
            throw Unusable(description: "a server is already listening on \(path)")
        }
        remove(path)
    }

    static func remove(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }

    /// Whether something accepts connections at `path`.
    private static func answers(_ path: String) -> Bool {
        #if canImport(Darwin)
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}
