import Foundation
import GeoNewsStore
import Hummingbird

/// `GET /v1/favourites` (newest first, in pages: ``FavouritePage``), `POST /v1/favourites`
/// (201 when saved, 200 with the existing favourite when that article was already saved) and
/// `DELETE /v1/favourites/{id}`, each for the user of the bearer token only.
struct FavouriteRoutes {
    let state: ServerState

    /// The body of `POST /v1/favourites`: an article as `/v1/headlines` returns it.
    struct NewFavourite: Decodable {
        let url: String
        let title: String
        let source: String?
        let publishedAt: String?
        let imageURL: String?
    }

    /// A favourite on the wire; `savedAt` is ISO 8601 UTC.
    struct Saved: Encodable {
        let id: Int64
        let url: String
        let title: String
        let source: String?
        let publishedAt: String?
        let imageURL: String?
        let savedAt: String

        init(_ f: Favourite) {
            id = f.id
            url = f.url
            title = f.title
            source = f.source
            publishedAt = f.publishedAt
            imageURL = f.imageURL
            savedAt = f.savedAt.formatted(.iso8601)
        }
    }

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/favourites") { request, _ in
            let user = try await state.authenticatedUser(request)
            let page = try FavouritePage(request.parameters)
            // One more than asked, to learn whether a next page exists.
            let found = try await state.store.favourites(user: user, before: page.before, limit: page.limit + 1)
            let shown = found.prefix(page.limit)
            var headers: HTTPFields = [.cacheControl: "private, no-cache"]
            if found.count > page.limit, let last = shown.last {
                headers[.link] = "</v1/favourites?limit=\(page.limit)&before=\(last.id)>; rel=\"next\""
            }
            return try JSONResponse.encode(shown.map(Saved.init), headers: headers)
        }
        routes.post("/v1/favourites") { request, _ in
            let user = try await state.authenticatedUser(request)
            let article = try await request.decodeJSON(NewFavourite.self, limit: 64 << 10)
            try Self.validate(article)
            let saved = try await state.store.save(
                url: article.url, title: article.title, source: article.source,
                publishedAt: article.publishedAt, imageURL: article.imageURL, user: user)
            return try JSONResponse.encode(Saved(saved.favourite), status: saved.created ? .created : .ok)
        }
        routes.delete("/v1/favourites/{id}") { request, context in
            let user = try await state.authenticatedUser(request)
            let text = context.parameters.get("id") ?? ""
            // Another user's favourite answers 404 like an unknown one: its existence is not told.
            guard let id = Int64(text), try await state.store.deleteFavourite(id: id, user: user) else {
                throw Problem.notFound("favourite with id", text)
            }
            return Response(status: .noContent)
        }
    }

    static func validate(_ article: NewFavourite) throws {
        guard let url = URL(string: article.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw Problem.badValue("url", "'\(article.url)' is not an http or https address")
        }
        guard !article.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Problem.badValue("title", "must not be empty")
        }
        for (field, value) in [
            ("url", article.url), ("title", article.title), ("source", article.source ?? ""),
            ("imageURL", article.imageURL ?? ""), ("publishedAt", article.publishedAt ?? ""),
        ] {
            if value.utf8.count > 4096 {
                throw Problem.badValue(field, "is \(value.utf8.count) bytes long; at most 4096")
            }
            // SQLite would keep the text only up to a NUL; refused rather than cut.
            if value.utf8.contains(0) {
                throw Problem.badValue(field, "contains a NUL character (U+0000), which is not stored")
            }
        }
    }
}
