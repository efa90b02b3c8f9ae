extension Array where Element == Int {
    /// Adds `more` to these counts by index (a country's catalogue index, a region's index):
    /// the first counts are taken whole, and every later one must have as many entries.
    mutating func addCounts(_ more: some Collection<Int>, _ what: StaticString) {
        if isEmpty {
            self = Array(more)
            return
        }
        precondition(count == more.count, "\(what)")
        for (k, n) in zip(indices, more) { self[k] += n }
    }
}
