import HTTPTypes

/// Which page of `GET /v1/favourites` to answer: `limit` favourites (1…``maximumLimit``,
/// default ``defaultLimit``), newest first, older than the favourite `before` when given.
/// A page that is not the last answers a `Link: <…>; rel="next"` header naming the next one.
struct FavouritePage {
    static let defaultLimit = 100
    static let maximumLimit = 500

    let limit: Int
    /// The id of the last favourite of the previous page; `nil` for the first page.
    let before: Int64?

    init(_ query: QueryParameters) throws {
        limit = try query.integer("limit", in: 1...Self.maximumLimit, default: Self.defaultLimit)
        if let text = query.value("before") {
            guard text.utf8.count <= 19, let id = Int64(text), id >= 1 else {
                throw Problem.badValue("before", "'\(text.prefix(40))' is not a favourite id (a whole number from 1)")
            }
            before = id
        } else {
            before = nil
        }
    }
}

extension HTTPField.Name {
    /// RFC 8288's `Link`, which HTTPTypes does not name.
    static var link: Self { Self("Link")! }
}
