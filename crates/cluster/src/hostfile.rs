//! The hostfile: one `host:port` per line, one line per process.

use std::net::{SocketAddr, ToSocketAddrs};

use gamegraph_graph::quote;

use crate::error::HostfileError;

/// The largest hostfile read: far more than a cluster's lines (a reader stops there).
pub const MAX_HOSTFILE_BYTES: u64 = 1 << 20;

/// Parses a hostfile given as bytes: [`parse_hostfile`] once the bytes are known to be
/// UTF-8.
///
/// # Errors
/// A [`HostfileError`] at the first byte that is not UTF-8, else those of
/// [`parse_hostfile`].
///
/// # Example
/// ```
/// use gamegraph_graph::{Located, Position};
///
/// let e = gamegraph_cluster::parse_hostfile_bytes(b"a:1\nb\xff:2\n").unwrap_err();
/// assert_eq!(e.position(), Some(Position::new(2, 2)));
/// ```
pub fn parse_hostfile_bytes(bytes: &[u8]) -> Result<Vec<String>, HostfileError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_hostfile(text),
        Err(e) => {
            let before = &bytes[..e.valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&before[start..]).chars().count() as u64 + 1;
            Err(HostfileError::new(line, column, "expected UTF-8 text"))
        }
    }
}

/// [`parse_hostfile_bytes`], then every address resolved (host names looked up): two lines
/// that name one address, such as `localhost:7000` and `127.0.0.1:7000`, are refused as two
/// equal lines are. A name that does not resolve is left for the connection to report.
///
/// # Errors
/// Those of [`parse_hostfile_bytes`], and a [`HostfileError`] at the later of two lines
/// that resolve to one address.
///
/// # Example
/// ```
/// use gamegraph_graph::Located;
///
/// let e = gamegraph_cluster::parse_hostfile_resolved(b"127.0.0.1:7000\nlocalhost:7000\n");
/// assert_eq!(e.unwrap_err().position().map(|p| p.line), Some(2));
/// ```
pub fn parse_hostfile_resolved(bytes: &[u8]) -> Result<Vec<String>, HostfileError> {
    let hosts = parse_hostfile_bytes(bytes)?;
    let resolved: Vec<Vec<SocketAddr>> = hosts
        .iter()
        .map(|h| h.to_socket_addrs().map(Iterator::collect).unwrap_or_default())
        .collect();
    for j in 1..hosts.len() {
        for i in 0..j {
            if let Some(address) = resolved[j].iter().find(|a| resolved[i].contains(a)) {
                let text = String::from_utf8_lossy(bytes);
                let (line, column) = address_line(&text, j);
                let message = format!(
                    "expected a new host:port, found {}, the address {address} of {} again \
                     (line {}): each process needs its own",
                    quote(&hosts[j]),
                    quote(&hosts[i]),
                    address_line(&text, i).0
                );
                return Err(HostfileError::new(line, column, message));
            }
        }
    }
    Ok(hosts)
}

/// The line and column of the `k`-th address (0-based) of a hostfile that parses.
fn address_line(text: &str, k: usize) -> (u64, u64) {
    let mut seen = 0;
    for (i, raw) in text.lines().enumerate() {
        let entry = raw.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        if seen == k {
            let indent = raw.len() - raw.trim_start().len();
            return (i as u64 + 1, raw[..indent].chars().count() as u64 + 1);
        }
        seen += 1;
    }
    (1, 1)
}

/// Parses a hostfile: one `host:port` per line, the line of process `i` being the `i`-th
/// address line (0-based). Blank lines and lines starting with `#` are skipped; spaces
/// around an address are ignored. A host is a name (letters, digits, `-` and `.`), an
/// IPv4 address or an IPv6 address in brackets; every address appears once.
///
/// # Errors
/// A [`HostfileError`] with the 1-based line and column of the first bad address, or
/// line 1 for a file without any address.
///
/// # Example
/// ```
/// let hosts = gamegraph_cluster::parse_hostfile("# two processes\n127.0.0.1:7001\n127.0.0.1:7002\n").unwrap();
/// assert_eq!(hosts, ["127.0.0.1:7001", "127.0.0.1:7002"]);
/// let e = gamegraph_cluster::parse_hostfile("a:1\nb\n").unwrap_err();
/// assert_eq!(gamegraph_graph::Located::position(&e).map(|p| p.line), Some(2));
/// ```
pub fn parse_hostfile(text: &str) -> Result<Vec<String>, HostfileError> {
    let mut hosts: Vec<String> = Vec::new();
    let mut lines: Vec<u64> = Vec::new();
    if text.starts_with('\u{feff}') {
        let message = "expected host:port, found a byte order mark (save the file without one)";
        return Err(HostfileError::new(1, 1, message));
    }
    for (i, raw) in text.lines().enumerate() {
        let line = i as u64 + 1;
        let bad = |offset: usize, message: String| {
            HostfileError::new(line, raw[..offset].chars().count() as u64 + 1, message)
        };
        if let Some(pos) = raw.find(|c: char| c.is_control() && c != '\t' && c != '\r') {
            let c = raw[pos..].chars().next().unwrap_or_default();
            return Err(bad(pos, format!("expected host:port, found the control character {c:?}")));
        }
        let indent = raw.len() - raw.trim_start().len();
        let entry = raw.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        if let Some(pos) = entry.find(char::is_whitespace) {
            return Err(bad(indent + pos, "expected one host:port per line".into()));
        }
        let Some(colon) = entry.rfind(':') else {
            return Err(bad(indent, format!("expected host:port, found {}", quote(entry))));
        };
        if colon == 0 {
            return Err(bad(indent, "missing host before `:`".into()));
        }
        if let Err((at, message)) = check_host(&entry[..colon]) {
            return Err(bad(indent + at, message));
        }
        let port = &entry[colon + 1..];
        match port.parse::<u16>() {
            Ok(p) if p > 0 && port.bytes().all(|b| b.is_ascii_digit()) => {}
            _ => {
                return Err(bad(
                    indent + colon + 1,
                    format!("expected a port 1..65535, found {}", quote(port)),
                ));
            }
        }
        if let Some(k) = hosts.iter().position(|h| h == entry) {
            let message = format!(
                "expected a new host:port, found {} again (line {}): each process needs its own",
                quote(entry),
                lines[k]
            );
            return Err(bad(indent, message));
        }
        hosts.push(entry.to_owned());
        lines.push(line);
    }
    if hosts.is_empty() {
        return Err(HostfileError::new(1, 1, "no host:port line"));
    }
    Ok(hosts)
}

/// Checks a host: a name, an IPv4 address or a bracketed IPv6 address. The error is the
/// byte offset of the problem and what was expected there.
fn check_host(host: &str) -> Result<(), (usize, String)> {
    if let Some(inner) = host.strip_prefix('[') {
        return match inner.strip_suffix(']').map(str::parse::<std::net::Ipv6Addr>) {
            Some(Ok(_)) => Ok(()),
            _ => Err((0, format!("expected an IPv6 address in brackets, found {}", quote(host)))),
        };
    }
    if host.contains(':') {
        return Err((0, format!("expected an IPv6 address in brackets, found {}", quote(host))));
    }
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    if let Some(at) = host.find(|c: char| !name_char(c)) {
        let c = host[at..].chars().next().unwrap_or_default();
        return Err((at, format!("expected a host name or an IP address, found {c:?}")));
    }
    let mut at = 0;
    for label in host.split('.') {
        if label.is_empty() || label.len() > 63 || label.starts_with('-') || label.ends_with('-') {
            let message = format!("expected a host name or an IP address, found {}", quote(host));
            return Err((at, message));
        }
        at += label.len() + 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_errors() {
        let e = parse_hostfile("127.0.0.1:7000\n  localhost:x\n").unwrap_err();
        assert_eq!((e.position.line, e.position.column), (2, 13));
        let e = parse_hostfile("\n\nnoport\n").unwrap_err();
        assert_eq!((e.position.line, e.position.column), (3, 1));
        let e = parse_hostfile("a:1 b:2\n").unwrap_err();
        assert_eq!((e.position.line, e.position.column), (1, 4));
        let e = parse_hostfile("a:0\n").unwrap_err();
        assert_eq!((e.position.line, e.position.column), (1, 3));
        let e = parse_hostfile("# nothing\n").unwrap_err();
        assert_eq!(
            (e.position.line, e.position.column, e.message.as_str()),
            (1, 1, "no host:port line")
        );
        assert_eq!(parse_hostfile(":5\n").unwrap_err().message, "missing host before `:`");
    }

    #[test]
    fn bad_hosts_boms_controls_and_duplicates_are_placed() {
        let cases: [(&str, (u64, u64)); 9] = [
            ("\u{feff}a:1\n", (1, 1)),
            ("a:1\nb\0c:2\n", (2, 2)),
            ("a:1\n  bad_host:2\n", (2, 6)),
            ("a..b:1\n", (1, 3)),
            ("::1:7000\n", (1, 1)),
            ("[::x]:7000\n", (1, 1)),
            ("a:1\n# c\n a:1\n", (3, 2)),
            ("a:+1\n", (1, 3)),
            ("-a:1\n", (1, 1)),
        ];
        for (text, at) in cases {
            let e = parse_hostfile(text).unwrap_err();
            assert_eq!((e.position.line, e.position.column), at, "{text:?}: {}", e.message);
        }
        let e = parse_hostfile("h:1\nh:1\n").unwrap_err();
        assert_eq!(
            e.message,
            "expected a new host:port, found \"h:1\" again (line 1): each process needs its own"
        );
        let e = parse_hostfile_bytes(b"a:1\n\xfe").unwrap_err();
        assert_eq!(
            (e.position.line, e.position.column, e.message.as_str()),
            (2, 1, "expected UTF-8 text")
        );
        assert_eq!(parse_hostfile("[::1]:1\nlocal-host.x:2\n10.0.0.1:3").unwrap().len(), 3);
    }

    #[test]
    fn skips_comments_and_blank_lines() {
        assert_eq!(parse_hostfile("\n# c\n h:1 \n\n[::1]:2").unwrap(), ["h:1", "[::1]:2"]);
    }
}
