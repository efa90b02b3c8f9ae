import Hummingbird

/// The methods each route path answers, so that a known path asked with another method gets
/// 405 with an `Allow` header instead of the router's 404: `OPTIONS` and `TRACE` included
/// (a CORS preflight never gets this far, ``CrossOrigin`` answers it), and `HEAD` on a path
/// without GET.
struct AllowedMethods: Sendable {
    private var byPath: [String: [HTTPRequest.Method]] = [:]
    private var order: [String] = []

    mutating func record(_ method: HTTPRequest.Method, _ path: String) {
        if byPath[path] == nil { order.append(path) }
        byPath[path, default: []].append(method)
    }

    /// Adds a 405 responder for every common method a recorded path does not answer.
    func addRefusals<Context: RequestContext>(to router: Router<Context>) {
        let common: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace]
        for path in order {
            let recorded = byPath[path, default: []]
            let methods = recorded.contains(.get) ? recorded + [.head] : recorded
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in common where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { request, _ -> Response in
                    throw Problem(
                        .methodNotAllowed, detail: "\(request.method) is not allowed on \(request.uri.path); use \(allow)",
                        headers: [.allow: allow])
                }
            }
        }
    }
}
