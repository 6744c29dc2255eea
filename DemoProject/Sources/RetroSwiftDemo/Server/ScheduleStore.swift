import Foundation

/// The embedded server's data: schedules per account, in memory.
actor ScheduleStore {
    private var schedules: [String: [Schedule]] = [:]

    init() {
        let base = Date(timeIntervalSince1970: 1_767_225_600)
        schedules["acc_demo"] = (1...5).map { index in
            Schedule(id: "sch_\(index)", title: "Team sync #\(index)", startsAt: base.addingTimeInterval(Double(index) * 86_400))
        }
    }

    func page(_ page: Int, limit: Int, account: String) -> [Schedule] {
        let all = schedules[account] ?? []
        let size = limit > 0 ? limit : all.count
        let start = max(0, (page - 1) * size)
        return start < all.count ? Array(all[start..<min(all.count, start + size)]) : []
    }

    func insert(_ schedule: Schedule, account: String) {
        schedules[account, default: []].removeAll { $0.id == schedule.id }
        schedules[account, default: []].append(schedule)
    }

    func update(_ id: String, with schedule: Schedule, account: String) -> Schedule? {
        guard let index = schedules[account]?.firstIndex(where: { $0.id == id }) else { return nil }
        var updated = schedule
        updated.id = id
        schedules[account]?[index] = updated
        return updated
    }

    func delete(_ id: String, account: String) -> Bool {
        guard schedules[account]?.contains(where: { $0.id == id }) == true else { return false }
        schedules[account]?.removeAll { $0.id == id }
        return true
    }
}
