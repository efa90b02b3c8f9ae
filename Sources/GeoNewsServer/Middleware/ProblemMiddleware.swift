import Hummingbird
import Logging

/// Turns every error a route or middleware throws into problem JSON, so that no response
/// carries a stack trace or an internal message. Errors that are not ``Problem``s are logged
/// and answered with a bare 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let error as HTTPError {
            let detail: String
            switch error.status {
            case .notFound: detail = "no route for \(request.method) \(request.uri.path)"
            case .contentTooLarge: detail = "the request body is larger than this server accepts"
            default: detail = error.body ?? error.status.reasonPhrase
            }
            return try Problem(error.status, detail: detail, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["path": .string(request.uri.path), "error": .string(String(reflecting: type(of: error)))])
            return try Problem(.internalServerError, detail: "the server failed to answer \(request.method) \(request.uri.path)")
                .response(from: request, context: context)
        }
    }
}
