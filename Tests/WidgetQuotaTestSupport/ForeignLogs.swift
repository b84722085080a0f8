import Foundation

extension LogTestSupport {
    /// Logs written by a process that is not the simulator: `instances` widgets whose extension
    /// fetches on every getTimeline, `before` calls a day on the first `days / 2` days and
    /// `after` a day on the rest, at evenly spaced times with a little deterministic jitter.
    package static func foreignLogs(devices: Int, days: Int, before: Int, after: Int) -> String {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func jitter() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 58)  // 0–63
        }
        var out = ""
        for d in 0..<devices {
            let name = "foreign-\(d)"
            for day in 0..<days {
                // Each device varies a little around the day's rate.
                let calls = (day < days / 2 ? before : after) + d % 5 - 2
                for k in 0..<calls {
                    let seconds = k * 86_400 / calls + jitter()
                    let time = String(
                        format: "2026-10-%02dT%02d:%02d:%02d.000+00:00", day + 1, seconds / 3600, seconds / 60 % 60, seconds % 60)
                    out += """
                        {"schemaVersion":1,"timestamp":"\(time)","device":"\(name)","event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0,"origin":"system","smartStack":false,"lowPowerMode":false,"outcome":"success"}
                        {"schemaVersion":1,"timestamp":"\(time)","device":"\(name)","event":"apiRequest","actor":"extension","instance":0,"smartStack":false,"lowPowerMode":false,"outcome":"success","durationMs":300}

                        """
                }
            }
        }
        return out
    }
}
