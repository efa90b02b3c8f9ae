import Foundation

/// An uploaded point set as the store keeps it: its points live in a file beside the database.
public struct DatasetRecord: Sendable, Hashable {
    /// The id clients pass as `dataset=`.
    public var id: String
    /// The name given at upload (the id when none was given).
    public var name: String
    /// The number of points.
    public var points: Int
    /// Changes whenever the points change (a hash of the file).
    public var version: String
    /// The file's name inside the state directory's `datasets` folder.
    public var file: String
    /// The user who uploaded it; `nil` for a dataset from before datasets had owners.
    public var owner: Int64?
    /// The upload's size in bytes.
    public var bytes: Int

    public init(id: String, name: String, points: Int, version: String, file: String, owner: Int64? = nil, bytes: Int = 0) {
        self.id = id
        self.name = name
        self.points = points
        self.version = version
        self.file = file
        self.owner = owner
        self.bytes = bytes
    }
}

/// How much of their dataset quota a user holds.
public struct DatasetUsage: Sendable, Equatable {
    /// Points over all the user's datasets.
    public var points: Int
    /// Bytes of upload over all the user's datasets.
    public var bytes: Int

    public init(points: Int, bytes: Int) {
        self.points = points
        self.bytes = bytes
    }
}
