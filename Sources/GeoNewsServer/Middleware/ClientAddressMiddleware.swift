import Dispatch
import HTTPTypes
import Hummingbird

/// The outermost middleware: names the request's client (``TrustedProxies``) in the context,
/// for the write limit and the log lines after it, and writes the request's line in the access
/// log when there is one.
struct ClientAddressMiddleware<Context: ClientAddressRequestContext>: RouterMiddleware {
    let proxies: TrustedProxies
    let accessLog: AccessLog?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if !proxies.blocks.isEmpty {
            // Without trusted proxies the client is the peer, named when first asked for.
            context.clientAddress = proxies.client(peer: context.remoteAddress?.ipAddress ?? "unknown", headers: request.headers)
        }
        guard let accessLog else { return try await next(request, context) }
        let started = DispatchTime.now().uptimeNanoseconds
        let client = context.client
        func record(_ status: Int, _ bytes: Int?) {
            accessLog.record(
                client: client, method: request.method.rawValue, target: request.uri.description, status: status, bytes: bytes,
                referer: request.headers[.referer], userAgent: request.headers[.userAgent],
                seconds: Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9)
        }
        do {
            let response = try await next(request, context)
            record(response.status.code, response.body.contentLength)
            return response
        } catch let error as any HTTPResponseError {
            record(error.status.code, nil)
            throw error
        } catch {
            record(500, nil)
            throw error
        }
    }
}

extension TrustedProxies {
    /// The client a request from `peer` with `headers` stands for (``client(peer:forwarded:forwardedFor:)``),
    /// each of `Forwarded` and `X-Forwarded-For` read only when its values, joined, fit in 4 KB.
    func client(peer: String, headers: HTTPFields) -> String {
        guard trusts(peer) else { return peer }
        return client(peer: peer, forwarded: Self.joined(headers, forwardedName), forwardedFor: Self.joined(headers, xForwardedForName))
    }

    /// A field's values joined as HTTP joins repeated fields; `nil` when absent or past 4 KB.
    static func joined(_ headers: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = headers[values: name]
        guard !values.isEmpty else { return nil }
        let text = values.joined(separator: ",")
        return text.utf8.count <= 4_096 ? text : nil
    }
}

/// `Forwarded` (RFC 7239) and `X-Forwarded-For`, read from a trusted proxy's requests.
private let forwardedName = HTTPField.Name("Forwarded")!
private let xForwardedForName = HTTPField.Name("X-Forwarded-For")!
