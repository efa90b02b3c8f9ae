import GeoNewsStore
import Hummingbird
import Logging

/// Turns every error a route or middleware throws into problem JSON, so that no response
/// carries a stack trace or an internal message. An error that carries its own status (a
/// Hummingbird or NIO error) keeps it; any other is logged and answered with a bare 500.
struct ProblemMiddleware<Context: ClientAddressRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            if problem.status.code == Problem.clientClosedStatus.code {
                // Not the server's failure: nobody is left to read the answer.
                context.logger.info(
                    "client closed the connection before its request body ended",
                    metadata: ["path": .string(request.uri.path), "client": .string(context.client)])
            }
            return try problem.response(from: request, context: context)
        } catch let error as StoreError {
            // The reason goes to the log only: it may name a table or a host, never a password.
            context.logger.error(
                "store failed",
                metadata: ["path": .string(request.uri.path), "client": .string(context.client), "error": .string(error.description)])
            return try Problem.store(error).response(from: request, context: context)
        } catch let error as HTTPError {
            let detail: String
            switch error.status {
            case .notFound: detail = "no route for \(request.method) \(request.uri.path)"
            case .contentTooLarge: detail = "the request body is larger than this server accepts"
            default: detail = error.body ?? error.status.reasonPhrase
            }
            return try Problem(error.status, detail: detail, headers: error.headers).response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            // NIO's too-many-bytes (413) and the like: their status, with a problem body.
            var headers = (try? error.response(from: request, context: context).headers) ?? [:]
            headers[.contentType] = nil
            headers[.contentLength] = nil
            let detail =
                error.status == .contentTooLarge ? "the request body is larger than this server accepts" : error.status.reasonPhrase
            return try Problem(error.status, detail: detail, headers: headers).response(from: request, context: context)
        } catch {
            context.logger.error(
                "request failed",
                metadata: [
                    "path": .string(request.uri.path), "client": .string(context.client),
                    "error": .string(String(reflecting: type(of: error))),
                ])
            return try Problem(.internalServerError, detail: "the server failed to answer \(request.method) \(request.uri.path)")
                .response(from: request, context: context)
        }
    }
}
