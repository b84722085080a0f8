import Foundation

extension LogTestSupport {
    /// Logs written by a process that is not the simulator: a widget whose extension fetches on
    /// every getTimeline, `before` calls a day on the first `days / 2` days and `after` a day on
    /// the rest, at evenly spaced times with a little deterministic jitter. Like Apple logs, they
    /// do not say why a timeline was built.
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
                        {"schemaVersion":1,"timestamp":"\(time)","device":"\(name)","event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0,"smartStack":false,"lowPowerMode":false,"outcome":"success"}
                        {"schemaVersion":1,"timestamp":"\(time)","device":"\(name)","event":"apiRequest","actor":"extension","instance":0,"smartStack":false,"lowPowerMode":false,"outcome":"success","durationMs":300}

                        """
                }
            }
        }
        return out
    }

    /// What a widget under `.after(1 hour)` logs by rules the simulator does not share: while its
    /// phone is in use (from a device's wake time, 5:30–7:00, to 1:00) a getTimeline every hour,
    /// a few minutes late, plus 2–6 calls a day of WidgetKit's own at fixed spots, at most 45 a
    /// day. With `cache`, the app refreshes an App Group cache older than an hour on each open
    /// (0–3 a day) and reloads its timelines once after a successful fetch, and a background
    /// task fetches once or twice a night; otherwise the extension fetches in every getTimeline.
    /// No line says why a timeline was built.
    package static func foreignPolicyLogs(devices: Int, days: Int, cache: Bool) -> String {
        var out = ""
        func line(_ device: String, _ day: Int, _ minute: Int, _ body: String) {
            let m = min(minute, 24 * 60 - 1)
            out +=
                #"{"schemaVersion":1,"timestamp":"2026-10-\#(String(format: "%02d", day + 1))T\#(String(format: "%02d:%02d", m / 60, m % 60)):00.000+00:00","device":"\#(device)",\#(body),"smartStack":false,"lowPowerMode":false}"#
            out += "\n"
        }
        let timeline = #""event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0,"outcome":"success""#
        func request(_ actor: String) -> String { #""event":"apiRequest","actor":"\#(actor)","outcome":"success","durationMs":900"# }
        for d in 0..<devices {
            let name = "policy-\(d)"
            let wake = 330 + (d % 4) * 30
            var lastFetch = -10_000
            for day in 0..<days {
                var events = [(minute: Int, kind: Int)]()  // 0 getTimeline, 1 app open, 2 background launch
                var t = wake
                while t < 24 * 60 {
                    events.append((t, 0))
                    t += 60 + (d + day + t) % 7
                }
                for k in 0..<(2 + (d * 7 + day) % 5) { events.append((wake + 37 + k * 181, 0)) }
                if cache {
                    for k in 0..<((d + day) % 4) { events.append((wake + 120 + k * 290 + d % 11, 1)) }
                    for k in 0..<(1 + (d + day) % 2) { events.append((90 + k * 150 + d % 13, 2)) }
                }
                events.sort { ($0.minute, $0.kind) < ($1.minute, $1.kind) }
                var calls = 0
                for e in events {
                    let now = day * 1_440 + e.minute
                    switch e.kind {
                    case 0:
                        guard calls < 45 else { continue }
                        calls += 1
                        line(name, day, e.minute, timeline)
                        if !cache { line(name, day, e.minute, request("extension")) }
                    case 1:
                        line(name, day, e.minute, #""event":"appForeground""#)
                        if now - lastFetch >= 60 {
                            lastFetch = now
                            line(name, day, e.minute, request("app"))
                            line(name, day, e.minute, #""event":"reloadAllTimelines""#)
                            line(name, day, e.minute, timeline)  // in the foreground: not over the budget
                        }
                        line(name, day, e.minute + 3, #""event":"appBackground""#)
                    default:
                        lastFetch = now
                        line(name, day, e.minute, #""event":"bgTaskLaunch""#)
                        line(name, day, e.minute, request("background"))
                        line(name, day, e.minute, #""event":"bgTaskComplete","outcome":"success""#)
                    }
                }
            }
        }
        return out
    }
}
