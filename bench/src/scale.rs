//! The pure parts of the scale benchmark (`benches/scale/`): reading what Redis, the kernel and
//! `redis-benchmark` report, reading a streamable-HTTP answer, and turning Redis's measured
//! rates and the commands a call sends into how many such calls one Redis serves.

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, TcpStream};
use std::time::Duration;

/// The JSON-RPC messages of a streamable-HTTP answer: the body itself when it is JSON, or the
/// `data:` of each event of an event stream (priming events, whose data is empty, left out).
pub fn messages(body: &str) -> Vec<&str> {
    let trimmed = body.trim();
    if trimmed.starts_with('{') {
        return vec![trimmed];
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| !data.is_empty())
        .collect()
}

/// The value of `name` in the text of Redis's `INFO` (`name:value` lines).
pub fn info_field<'a>(info: &'a str, name: &str) -> Option<&'a str> {
    info.lines()
        .filter_map(|line| line.trim_end().split_once(':'))
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// The calls of each command in `INFO commandstats` (`cmdstat_get:calls=3,usec=…`), by the
/// command's name in lower case (`config|get` for a subcommand).
pub fn command_calls(info: &str) -> BTreeMap<String, u64> {
    info.lines()
        .filter_map(|line| line.strip_prefix("cmdstat_"))
        .filter_map(|line| {
            let (name, fields) = line.split_once(':')?;
            let calls = fields
                .split(',')
                .find_map(|field| field.strip_prefix("calls="))?;
            Some((name.to_lowercase(), calls.trim().parse().ok()?))
        })
        .collect()
}

/// The commands of `after` not in `before` and the growth of the others, without those the
/// benchmark itself sends to read Redis (`INFO`), nor a connection's greeting and keep-alive.
pub fn command_growth(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    after
        .iter()
        .filter(|(name, _)| !is_overhead(name))
        .filter_map(|(name, &calls)| {
            let grown = calls.saturating_sub(before.get(name).copied().unwrap_or(0));
            (grown > 0).then(|| (name.clone(), grown))
        })
        .collect()
}

fn is_overhead(name: &str) -> bool {
    name == "info"
        || name == "ping"
        || name == "hello"
        || name == "echo"
        || name == "monitor"
        || name.starts_with("client")
}

/// A whole RESP reply to a command: a simple string (`+OK`) or a bulk string (`$LEN\r\nTEXT`)
/// as its text, an error (`-ERR …`) as an error; `None` while it is incomplete.
pub fn reply(bytes: &[u8]) -> Option<Result<String, String>> {
    let end = bytes.windows(2).position(|w| w == b"\r\n")?;
    let head = String::from_utf8_lossy(&bytes[1..end]).into_owned();
    match bytes.first()? {
        b'+' => Some(Ok(head)),
        b'-' => Some(Err(head)),
        b'$' => {
            let len: usize = head.parse().ok()?;
            let text = bytes.get(end + 2..end + 2 + len)?;
            Some(Ok(String::from_utf8_lossy(text).into_owned()))
        }
        _ => Some(Err(format!("an unexpected reply: {head}"))),
    }
}

/// Sends `command` (words without quotes, such as `INFO cpu`) to the Redis on loopback
/// `port` over a connection of its own (so that the reading needs no client library and is
/// never one of the store's own connections); its reply.
pub fn redis_command(port: u16, command: &str) -> Result<String, String> {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port))
        .map_err(|e| format!("cannot reach Redis on port {port}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(format!("{command}\r\n").as_bytes())
        .map_err(|e| format!("{command}: {e}"))?;
    let mut received = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(answer) = reply(&received) {
            return answer.map_err(|e| format!("{command}: {e}"));
        }
        let read = (stream.read(&mut chunk)).map_err(|e| format!("{command}: {e}"))?;
        if read == 0 {
            return Err(format!(
                "{command}: Redis closed the connection after {:?}",
                String::from_utf8_lossy(&received)
            ));
        }
        received.extend_from_slice(&chunk[..read]);
    }
}

/// `INFO SECTION` of the Redis on loopback `port`.
pub fn redis_info(port: u16, section: &str) -> Result<String, String> {
    redis_command(port, &format!("INFO {section}"))
}

/// One test of `redis-benchmark -q`: its name and requests per second (`SET: 81234.57
/// requests per second, p50=0.311 msec`). The quiet output rewrites a progress line with
/// carriage returns before the final one, so only the text after the last `\r` counts.
pub fn benchmark_rate(line: &str) -> Option<(String, f64)> {
    let line = line.rsplit('\r').next()?.trim();
    let (name, rest) = line.rsplit_once(": ")?;
    let rate = rest.strip_suffix(" requests per second").or_else(|| {
        rest.split_once(" requests per second")
            .map(|(rate, _)| rate)
    })?;
    Some((name.trim().to_owned(), rate.trim().parse().ok()?))
}

/// The resident set (`VmRSS`, KiB) in the text of `/proc/PID/status`.
pub fn vm_rss_kib(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The processor time (user and system, in clock ticks of 1/100 s: Linux's `USER_HZ`) of all
/// threads of a process, in the text of `/proc/PID/stat`.
pub fn cpu_ticks(stat: &str) -> Option<u64> {
    // The name, in parentheses, may hold spaces: the fields are counted from after it, where
    // the third field (the state) starts; utime and stime are the 14th and 15th.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some(user + system)
}

/// What a Redis command costs Redis, by the `redis-benchmark` test that stands for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A Lua script (`EVALSHA`, `EVAL`, `SCRIPT LOAD`): timed as a script that reads and
    /// writes one hash.
    Script,
    /// A command that changes data or publishes (`SET`, `HSET`, `DEL`, `PUBLISH`, …): timed as
    /// `SET`.
    Write,
    /// A command that only reads (`GET`, `HGET`, `HGETALL`, `ZRANGE`, …): timed as `GET`.
    Read,
}

impl Kind {
    /// The kind of the command `name` (lower case, as `MONITOR` reports it).
    pub fn of(name: &str) -> Kind {
        const READS: &[&str] = &[
            "get",
            "mget",
            "hget",
            "hmget",
            "hgetall",
            "hlen",
            "hexists",
            "exists",
            "ttl",
            "pttl",
            "zrange",
            "zrangebyscore",
            "zcard",
            "zcount",
            "zscore",
            "scard",
            "smembers",
            "time",
            "sismember",
            "type",
            "strlen",
            "llen",
            "lrange",
            "scan",
            "subscribe",
            "psubscribe",
        ];
        if matches!(
            name,
            "evalsha" | "eval" | "evalsha_ro" | "eval_ro" | "script" | "fcall"
        ) {
            Kind::Script
        } else if READS.contains(&name) {
            Kind::Read
        } else {
            Kind::Write
        }
    }
}

/// One Redis's rate for each [`Kind`] of command, measured by `redis-benchmark`, requests per
/// second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// A script reading and writing one hash.
    pub script: f64,
    /// `SET`.
    pub write: f64,
    /// `GET`.
    pub read: f64,
}

impl Rates {
    /// How many calls a second one Redis serves when each call sends `commands` (the names of
    /// the commands of one call), each costing Redis the time of its kind's test: the
    /// inverse of the sum of those times. `None` for a call that sends nothing.
    pub fn calls_per_second<S: AsRef<str>>(&self, commands: &[S]) -> Option<f64> {
        let seconds: f64 = commands
            .iter()
            .map(|c| {
                1.0 / match Kind::of(c.as_ref()) {
                    Kind::Script => self.script,
                    Kind::Write => self.write,
                    Kind::Read => self.read,
                }
            })
            .sum();
        (seconds > 0.0).then(|| 1.0 / seconds)
    }
}

/// `commands` counted by name, most frequent first (ties by name): `evalsha ×3, get ×1`.
pub fn tally<S: AsRef<str>>(commands: &[S]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for c in commands {
        *counts.entry(c.as_ref()).or_default() += 1;
    }
    let mut counts: Vec<(&str, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let parts: Vec<String> = counts
        .iter()
        .map(|(name, n)| format!("{name} ×{n}"))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A count with thousands separators: `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_its_json_or_the_data_of_its_events() {
        assert_eq!(messages(" {\"id\":1}\n"), vec!["{\"id\":1}"]);
        let stream = "id: 0\ndata:\n\nid: 1\nevent: message\ndata: {\"id\":2}\n\n";
        assert_eq!(messages(stream), vec!["{\"id\":2}"]);
        assert!(messages("").is_empty());
    }

    #[test]
    fn info_fields_and_command_counts_are_read() {
        let info = "# Commandstats\r\ncmdstat_get:calls=12,usec=30,usec_per_call=2.50,rejected_calls=0\r\n\
                    cmdstat_evalsha:calls=3,usec=90\r\ncmdstat_info:calls=7,usec=1\r\nused_memory:1024\r\n";
        assert_eq!(info_field(info, "used_memory"), Some("1024"));
        assert_eq!(info_field(info, "nope"), None);
        let calls = command_calls(info);
        assert_eq!(calls.get("get"), Some(&12));
        assert_eq!(calls.get("evalsha"), Some(&3));
        let later = command_calls(
            "cmdstat_get:calls=12\ncmdstat_evalsha:calls=5\ncmdstat_info:calls=9\ncmdstat_hget:calls=1\n",
        );
        let grown = command_growth(&calls, &later);
        assert_eq!(
            grown.into_iter().collect::<Vec<_>>(),
            vec![("evalsha".to_owned(), 2), ("hget".to_owned(), 1)],
            "INFO itself and unchanged commands are left out"
        );
    }

    #[test]
    fn a_reply_is_read_once_whole() {
        assert_eq!(reply(b"$5\r\nhello\r\n"), Some(Ok("hello".to_owned())));
        assert_eq!(reply(b"$5\r\nhel"), None);
        assert_eq!(reply(b"$5"), None);
        assert_eq!(reply(b"+OK\r\n"), Some(Ok("OK".to_owned())));
        assert_eq!(reply(b"-ERR no\r\n"), Some(Err("ERR no".to_owned())));
    }

    #[test]
    fn redis_benchmark_rates_are_read() {
        assert_eq!(
            benchmark_rate(
                "SET: rps=0.0 (overall: nan) avg_msec=nan\rSET: 81234.57 requests per second, p50=0.311 msec"
            ),
            Some(("SET".to_owned(), 81234.57))
        );
        assert_eq!(
            benchmark_rate("GET: 100000.00 requests per second"),
            Some(("GET".to_owned(), 100000.0))
        );
        assert_eq!(
            benchmark_rate("EVAL \"return 1\" 0: 52000.10 requests per second, p50=0.5 msec"),
            Some(("EVAL \"return 1\" 0".to_owned(), 52000.1))
        );
        assert_eq!(benchmark_rate("====== SET ======"), None);
    }

    #[test]
    fn the_resident_set_is_read() {
        let status = "Name:\tmcp-workspace\nVmHWM:\t   20000 kB\nVmRSS:\t   12345 kB\n";
        assert_eq!(vm_rss_kib(status), Some(12345));
        assert_eq!(vm_rss_kib("Name: x\n"), None);
    }

    #[test]
    fn processor_time_is_read_past_a_name_with_spaces() {
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 3 0";
        assert_eq!(cpu_ticks(stat), Some(281));
        assert_eq!(cpu_ticks("4242 (x) S 1"), None);
    }

    #[test]
    fn calls_per_second_add_the_time_of_each_command() {
        let rates = Rates {
            script: 10_000.0,
            write: 50_000.0,
            read: 100_000.0,
        };
        let one_of_each = rates
            .calls_per_second(&["evalsha", "publish", "hget"])
            .unwrap();
        // 100 µs + 20 µs + 10 µs a call.
        assert!((one_of_each - 1.0 / 130e-6).abs() < 1e-6, "{one_of_each}");
        assert_eq!(rates.calls_per_second::<&str>(&[]), None);
        assert_eq!(Kind::of("evalsha"), Kind::Script);
        assert_eq!(Kind::of("hgetall"), Kind::Read);
        assert_eq!(Kind::of("publish"), Kind::Write);
    }

    #[test]
    fn tallies_and_thousands() {
        assert_eq!(tally(&["get", "evalsha", "evalsha"]), "evalsha ×2, get ×1");
        assert_eq!(tally::<&str>(&[]), "none");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
