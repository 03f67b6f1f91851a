/// Where a new subscriber goes among a subject's subscribers, and so when it is called: the
/// order of RxSwift's `Bag`, which subjects and RxTest's hot observables deliver in.
///
/// The `Bag` keeps its first subscriber in a slot of its own and the others in an array after
/// it. A new subscriber takes that first slot whenever it is free, and is then called first:
/// subscribe A, B; dispose A; subscribe C; an event reaches C, then B. (Past 31 subscribers at
/// once the `Bag` moves to a dictionary, whose order varies from run to run; here they stay in
/// subscription order.)
///
/// `keys` lists the subscribers' keys in delivery order; whoever keeps their observers in a
/// parallel array inserts and removes at the indices this returns.
package struct BagOrder {
    package private(set) var keys: [Int] = []
    /// Whether `keys[0]` is in the first slot; the keys after it are in increasing order.
    private var firstSlotTaken = false
    private var nextKey = 0

    package init() {}

    package var isEmpty: Bool { keys.isEmpty }

    /// A key for a new subscriber and the index it is delivered at.
    package mutating func insert() -> (key: Int, index: Int) {
        let key = nextKey
        nextKey += 1
        if firstSlotTaken || keys.isEmpty {
            firstSlotTaken = true
            keys.append(key)
            return (key, keys.count - 1)
        }
        firstSlotTaken = true
        keys.insert(key, at: 0)
        return (key, 0)
    }

    /// Removes `key`; returns the index it was at, or `nil` when it was removed already.
    package mutating func remove(_ key: Int) -> Int? {
        if firstSlotTaken && keys[0] == key {
            firstSlotTaken = false
            keys.removeAtOrLast(0)
            return 0
        }
        // The keys after the first slot were appended in increasing order.
        var low = firstSlotTaken ? 1 : 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        guard low < keys.count, keys[low] == key else { return nil }
        keys.removeAtOrLast(low)
        return low
    }

    package mutating func removeAll() {
        keys.removeAll()
        firstSlotTaken = false
    }
}

extension Array {
    /// `remove(at:)`, through `removeLast()` when `index` is the last one, as it is for a subject's
    /// only or newest subscriber: `remove(at:)` moves the tail down and costs more even when
    /// there is none to move.
    @inline(__always)
    mutating func removeAtOrLast(_ index: Int) {
        if index == count - 1 { removeLast() } else { remove(at: index) }
    }
}
