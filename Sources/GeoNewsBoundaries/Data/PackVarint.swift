// The integer codes the packs share: LEB128 varints and zigzag differences. The decoders here
// read them; the encoders (GeoNewsBoundaryBuilding, build time) write them.

package func putVarint(_ value: UInt32, _ out: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
        out.append(UInt8(v & 0x7F) | 0x80)
        v >>= 7
    }
    out.append(UInt8(v))
}

/// A difference as an unsigned number, small for small magnitudes of either sign.
package func zigzag(_ d: Int16) -> UInt16 {
    UInt16(bitPattern: (d << 1) ^ (d >> 15))
}

package func unzigzag(_ z: UInt16) -> Int16 {
    Int16(bitPattern: z >> 1) ^ -Int16(bitPattern: z & 1)
}

/// A difference of two 15-bit values, modulo 2^15, zigzagged.
package func zigzag15(_ d: Int) -> UInt16 {
    let wrapped = ((d + (1 << 14)) & 0x7FFF) - (1 << 14)  // -2^14 ..< 2^14
    return UInt16(wrapped >= 0 ? 2 * wrapped : -2 * wrapped - 1)
}

package func unzigzag15(_ z: UInt16) -> Int {
    z & 1 == 0 ? Int(z >> 1) : -Int(z >> 1) - 1
}
