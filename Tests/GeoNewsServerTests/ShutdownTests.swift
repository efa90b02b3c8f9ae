#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest

/// SIGTERM stops the server gracefully: a request under way is answered, then it exits 0.
final class ShutdownTests: XCTestCase {
    func testSIGTERMLetsARequestInFlightFinish() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let body = Data(#"{"url":"https://news.example.org/slow","title":"Sent slowly"}"#.utf8)
        let connection = try LoopbackConnection(port: server.port)
        // Headers and half the body, then SIGTERM, then the rest: the request is in flight.
        try connection.send(Data("""
            POST /v1/favourites HTTP/1.1\r
            Host: 127.0.0.1\r
            Authorization: Bearer \(token)\r
            Content-Type: application/json\r
            Content-Length: \(body.count)\r
            \r

            """.utf8) + body.prefix(10))
        try await Task.sleep(for: .milliseconds(300))
        kill(server.process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        try connection.send(body.dropFirst(10))
        let answer = connection.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 201"), answer)
        XCTAssertEqual(server.stop(), 0)
        // New connections are refused once it has stopped.
        XCTAssertThrowsError(try LoopbackConnection(port: server.port))
    }
}

/// A plain TCP connection to 127.0.0.1, to send a request in pieces.
final class LoopbackConnection {
    private let socket: Int32

    struct Failure: Error { let call: String; let code: Int32 }

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            close(socket)
            throw Failure(call: "connect", code: errno)
        }
    }

    func send(_ data: Data) throws {
        let sent = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == data.count else { throw Failure(call: "send", code: errno) }
    }

    /// Whether the server has not closed the connection (nothing waiting to be read counts
    /// as open).
    var isOpen: Bool {
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    /// The next response head the server sends, up to and with its blank line (or what came
    /// within 10 s).
    func receiveHead() -> String {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]), recv(socket, &byte, 1, 0) == 1 { received.append(byte) }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func receiveAll() -> String { String(decoding: receiveAllBytes(), as: UTF8.self) }

    /// Everything the server sends until it closes the connection (or 10 s pass), as bytes.
    func receiveAllBytes() -> Data {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return received
    }

    deinit { close(socket) }
}
