/// A square grid of 2^k × 2^k cells over the Web Mercator unit square, and the row-major cell
/// key that orders a level's items.
///
/// This grid replaces kdbush's KD-tree. A level's items sorted by key put each grid row in one
/// run and each cell inside it in one run, so a neighbour search looks at three short runs and
/// a box query walks rows. When a cell is at least the clustering radius wide, every neighbour
/// within the radius lies in the 3 × 3 cells around an item's own. Halving the cell size from
/// one level to the next keeps that true at every zoom, and turns the re-sort between levels
/// into a linear merge of row pairs (``LevelBuffer``).
struct CellGrid: Equatable {
    /// k: 2^k cells per side, 0…30.
    let exponent: Int
    /// 2^k, as a Double.
    let scale: Double
    /// 2^k − 1, the last row and column.
    let lastCell: Int

    init(exponent: Int) {
        self.exponent = exponent
        self.scale = pow2(exponent)
        self.lastCell = (1 << exponent) - 1
    }

    /// The finest grid whose cells are at least `radius` wide (radius in mercator units), at
    /// most 2^30 per side so that keys fit 60 bits.
    static func covering(radius: Double) -> CellGrid {
        var k = 0
        while k < 30 && pow2(-(k + 1)) >= radius { k += 1 }
        return CellGrid(exponent: k)
    }

    /// The cell index of a coordinate in 0…1 (a value of exactly 1 falls in the last cell).
    @inline(__always)
    func cell(_ v: Double) -> Int {
        let c = Int(v * scale)
        return c > lastCell ? lastCell : c
    }

    @inline(__always)
    func key(row: Int, column: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: row) << UInt64(exponent) | UInt64(truncatingIfNeeded: column)
    }

    @inline(__always)
    func key(x: Double, y: Double) -> UInt64 {
        key(row: cell(y), column: cell(x))
    }

    @inline(__always)
    func row(of key: UInt64) -> Int { Int(truncatingIfNeeded: key >> UInt64(exponent)) }

    @inline(__always)
    func column(of key: UInt64) -> Int { Int(truncatingIfNeeded: key) & lastCell }

    /// Number of significant bits in a key, for radix sorting.
    var keyBits: Int { 2 * exponent }
}
