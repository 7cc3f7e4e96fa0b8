//! The connections between the processes, made here rather than by timely: process `i`
//! dials every lower process and accepts every higher one, twice (a data connection for
//! timely and a beat connection for the liveness watch), and every connection starts with
//! a fixed-size [`Hello`] each way, checked before any byte of timely's.
//!
//! A hello is 64 bytes, integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `GGCLUST\n` |
//! | 8 | 4 | protocol version ([`PROTOCOL`]) |
//! | 12 | 1 | channel: 0 data, 1 beat |
//! | 13 | 1 | 1 when the process writes shards, else 0 |
//! | 14 | 1 | what it reads: 0 a graph, 1 a binary file, 2 a file it sends, 3 a file process 0 sends |
//! | 15 | 1 | 0 |
//! | 16 | 4 | the process |
//! | 20 | 4 | the processes of its cluster |
//! | 24 | 4 | its workers |
//! | 28 | 4 | a checksum of its query (its front end's arguments), 32 bits |
//! | 32 | 8 | a checksum of its hostfile's addresses |
//! | 40 | 8 | the vertices of its graph (`u64::MAX` when unknown) |
//! | 48 | 8 | the arcs of its graph (`u64::MAX` when unknown) |
//! | 56 | 8 | a checksum of its graph's arcs, 0 when it does not hold the whole graph |
//!
//! The accepting side answers a good hello with its own and one byte: 0 when it takes the
//! connection, 1 when another process already connected as the same process. A
//! connection whose first bytes are not a hello (a stray client) is closed and the
//! process goes on waiting for its peers; an address of the hostfile that answers with
//! anything but a hello ends the solve.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use gamegraph_graph::format::binary::Checksum;

use crate::error::{ClusterError, Disagreement};
use crate::wire::Reads;

/// The version of this protocol (the hello and what follows it on each connection).
pub(crate) const PROTOCOL: u32 = 2;

const MAGIC: [u8; 8] = *b"GGCLUST\n";
const HELLO_LEN: usize = 64;
/// A size the sender does not know.
const UNKNOWN: u64 = u64::MAX;
/// The connections of a pair of processes.
pub(crate) const DATA: u8 = 0;
pub(crate) const BEAT: u8 = 1;
/// How long to wait before dialling a peer that refused the connection again.
const RETRY: Duration = Duration::from_millis(100);
/// How often the accepting side looks for a new connection.
const POLL: Duration = Duration::from_millis(20);
/// How long an accepted connection has to send its hello (a real peer sends it at once):
/// a silent stray client holds the accepting side up no longer than this.
const HELLO_WAIT: Duration = Duration::from_secs(5);

/// What a process says of itself on every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hello {
    pub(crate) protocol: u32,
    pub(crate) channel: u8,
    pub(crate) shards: bool,
    pub(crate) reads: Reads,
    pub(crate) process: usize,
    pub(crate) processes: usize,
    pub(crate) workers: usize,
    pub(crate) hosts: u64,
    pub(crate) query: u32,
    pub(crate) digest: u64,
}

impl Hello {
    fn encode(&self) -> [u8; HELLO_LEN] {
        let mut b = [0u8; HELLO_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.protocol.to_le_bytes());
        b[12] = self.channel;
        b[13] = u8::from(self.shards);
        let (kind, n, m) = match self.reads {
            Reads::Graph { vertices, arcs } => (0, vertices as u64, arcs as u64),
            Reads::Binary { vertices, arcs } => (1, vertices as u64, arcs as u64),
            Reads::Sent { vertices, arcs } => (2, vertices as u64, arcs as u64),
            Reads::SentByProcess0 => (3, UNKNOWN, UNKNOWN),
        };
        b[14] = kind;
        b[16..20].copy_from_slice(&(self.process as u32).to_le_bytes());
        b[20..24].copy_from_slice(&(self.processes as u32).to_le_bytes());
        b[24..28].copy_from_slice(&(self.workers as u32).to_le_bytes());
        b[28..32].copy_from_slice(&self.query.to_le_bytes());
        b[32..40].copy_from_slice(&self.hosts.to_le_bytes());
        b[40..48].copy_from_slice(&n.to_le_bytes());
        b[48..56].copy_from_slice(&m.to_le_bytes());
        b[56..64].copy_from_slice(&self.digest.to_le_bytes());
        b
    }

    /// The hello in `b`, or `None` when `b` is not one. A hello of another protocol
    /// version is returned with only its version known to be right.
    fn decode(b: &[u8; HELLO_LEN]) -> Option<Hello> {
        if b[0..8] != MAGIC {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let (n, m) = (u64_at(40), u64_at(48));
        let size = |x: u64| usize::try_from(x).ok();
        let reads = match b[14] {
            0 => Reads::Graph { vertices: size(n)?, arcs: size(m)? },
            1 => Reads::Binary { vertices: size(n)?, arcs: size(m)? },
            2 => Reads::Sent { vertices: size(n)?, arcs: size(m)? },
            _ => Reads::SentByProcess0,
        };
        Some(Hello {
            protocol: u32_at(8),
            channel: b[12],
            shards: b[13] != 0,
            reads,
            process: u32_at(16) as usize,
            processes: u32_at(20) as usize,
            workers: u32_at(24) as usize,
            hosts: u64_at(32),
            query: u32_at(28),
            digest: u64_at(56),
        })
    }

    /// What differs between this process's hello and a peer's, as both sides see it.
    fn disagreement(&self, peer: &Hello) -> Option<Disagreement> {
        if self.protocol != peer.protocol {
            Some(Disagreement::Protocol { this: self.protocol, peer: peer.protocol })
        } else if self.processes != peer.processes {
            Some(Disagreement::Processes { this: self.processes, peer: peer.processes })
        } else if self.workers != peer.workers {
            Some(Disagreement::Workers { this: self.workers, peer: peer.workers })
        } else if self.hosts != peer.hosts {
            Some(Disagreement::Hosts)
        } else if self.query != peer.query {
            Some(Disagreement::Query)
        } else {
            None
        }
    }
}

/// A checksum of the hostfile's addresses.
pub(crate) fn hosts_digest(addresses: &[String]) -> u64 {
    let mut sum = Checksum::new();
    for a in addresses {
        sum.update(a.as_bytes());
        sum.update(b"\n");
    }
    sum.finish()
}

/// A 32-bit checksum of a query as the front end states it.
pub(crate) fn query_digest(query: &str) -> u32 {
    let mut sum = Checksum::new();
    sum.update(query.as_bytes());
    sum.finish() as u32
}

/// The connections of a process to every other, by process (`None` for itself), and
/// the hellos of every process (its own included), by process.
pub(crate) struct Mesh {
    pub(crate) data: Vec<Option<TcpStream>>,
    pub(crate) beats: Vec<Option<TcpStream>>,
    pub(crate) hellos: Vec<Hello>,
}

/// Connects process `me.process` to every other of `addresses` by `deadline`.
///
/// # Errors
/// [`ClusterError::Network`] when this process's address cannot be listened on,
/// [`ClusterError::ConnectTimeout`], [`ClusterError::NotAPeer`] and
/// [`ClusterError::Disagree`].
pub(crate) fn connect(
    me: Hello,
    addresses: &[String],
    timeout: Duration,
) -> Result<Mesh, ClusterError> {
    let deadline = Instant::now() + timeout;
    let processes = addresses.len();
    let i = me.process;
    let listener = TcpListener::bind(&addresses[i])
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| ClusterError::network(format!("cannot listen on {}", addresses[i]), e))?;
    let mut mesh = Mesh {
        data: (0..processes).map(|_| None).collect(),
        beats: (0..processes).map(|_| None).collect(),
        hellos: vec![me; processes],
    };
    let mut detail = None;
    let late = |detail: Option<String>| ClusterError::ConnectTimeout { timeout, detail };
    for (j, address) in addresses.iter().enumerate().take(i) {
        for channel in [DATA, BEAT] {
            let hello = Hello { channel, ..me };
            let (stream, theirs) = dial(address, j, &hello, deadline).map_err(|e| match e {
                Dial::Late(d) => late(d),
                Dial::Fail(e) => e,
            })?;
            mesh.hellos[j] = theirs;
            *slot(&mut mesh, channel, j) = Some(stream);
        }
    }
    let mut wanted = 2 * (processes - 1 - i);
    while wanted > 0 {
        let (stream, from) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {
                if Instant::now() >= deadline {
                    return Err(late(detail));
                }
                std::thread::sleep(POLL);
                continue;
            }
            Err(e) => return Err(ClusterError::network("accepting a connection", e)),
        };
        match greet(stream, from, &me, &mut mesh, deadline)? {
            Ok(()) => wanted -= 1,
            Err(why) => detail = Some(why),
        }
    }
    Ok(mesh)
}

fn slot(mesh: &mut Mesh, channel: u8, process: usize) -> &mut Option<TcpStream> {
    if channel == DATA { &mut mesh.data[process] } else { &mut mesh.beats[process] }
}

/// Why dialling failed: too late (with what happened), or for good.
enum Dial {
    Late(Option<String>),
    Fail(ClusterError),
}

/// Dials process `j` at `address` until it answers, and exchanges hellos.
fn dial(
    address: &str,
    j: usize,
    hello: &Hello,
    deadline: Instant,
) -> Result<(TcpStream, Hello), Dial> {
    let mut stream = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Dial::Late(None));
        }
        match resolve(address).and_then(|a| TcpStream::connect_timeout(&a, left)) {
            Ok(s) => break s,
            Err(_) => std::thread::sleep(RETRY.min(left)),
        }
    };
    let silent = || Dial::Late(Some(format!("{address} (process {j}) accepted but sent no hello")));
    let io = |e: io::Error| match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => silent(),
        _ => Dial::Fail(ClusterError::network(format!("{address} (process {j})"), e)),
    };
    let _ = stream.set_nodelay(true);
    stream.write_all(&hello.encode()).map_err(io)?;
    let theirs = read_hello(&mut stream, deadline).map_err(io)?.ok_or_else(|| {
        Dial::Fail(ClusterError::NotAPeer { address: address.into(), process: j })
    })?;
    if let Some(what) = hello.disagreement(&theirs) {
        return Err(Dial::Fail(ClusterError::Disagree { process: j, this: hello.process, what }));
    }
    if theirs.process != j || theirs.channel != hello.channel {
        return Err(Dial::Fail(ClusterError::NotAPeer { address: address.into(), process: j }));
    }
    let mut ack = [0u8; 1];
    stream.read_exact(&mut ack).map_err(io)?;
    if ack[0] != 0 {
        let (process, this) = (hello.process, j);
        return Err(Dial::Fail(ClusterError::Disagree {
            process,
            this,
            what: Disagreement::Twice,
        }));
    }
    stream.set_read_timeout(None).map_err(io)?;
    Ok((stream, theirs))
}

/// The first address of `address`.
fn resolve(address: &str) -> io::Result<SocketAddr> {
    address
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| io::Error::new(ErrorKind::NotFound, "the address resolves to nothing"))
}

/// Reads a hello by `deadline` (at most [`HELLO_WAIT`] from now): `None` when the bytes
/// are not one.
fn read_hello(stream: &mut TcpStream, deadline: Instant) -> io::Result<Option<Hello>> {
    let left = deadline.saturating_duration_since(Instant::now()).min(HELLO_WAIT);
    stream.set_read_timeout(Some(left.max(Duration::from_millis(1))))?;
    let mut b = [0u8; HELLO_LEN];
    stream.read_exact(&mut b)?;
    Ok(Hello::decode(&b))
}

/// Takes an accepted connection: `Ok(Err(why))` when it is not from a peer (it is
/// closed and the process goes on waiting), an error when it is from a peer set up
/// differently.
fn greet(
    mut stream: TcpStream,
    from: SocketAddr,
    me: &Hello,
    mesh: &mut Mesh,
    deadline: Instant,
) -> Result<Result<(), String>, ClusterError> {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_nodelay(true);
    let theirs = match read_hello(&mut stream, deadline) {
        Ok(Some(h)) => h,
        Ok(None) => {
            return Ok(Err(format!(
                "closed a connection from {from} that is not from a gamegraph cluster process"
            )));
        }
        Err(_) => return Ok(Err(format!("closed a connection from {from} that sent no hello"))),
    };
    let hello = Hello { channel: theirs.channel, ..*me };
    let refuse = |stream: &mut TcpStream, code: u8| {
        let mut answer = hello.encode().to_vec();
        answer.push(code);
        let _ = stream.write_all(&answer);
    };
    if let Some(what) = me.disagreement(&theirs) {
        refuse(&mut stream, 1);
        return Err(ClusterError::Disagree { process: theirs.process, this: me.process, what });
    }
    let p = theirs.process;
    if p <= me.process || p >= mesh.hellos.len() || theirs.channel > BEAT {
        refuse(&mut stream, 1);
        return Ok(Err(format!("closed a connection from {from} that claimed to be process {p}")));
    }
    if slot(mesh, theirs.channel, p).is_some() {
        refuse(&mut stream, 1);
        return Err(ClusterError::Disagree {
            process: p,
            this: me.process,
            what: Disagreement::Twice,
        });
    }
    refuse(&mut stream, 0);
    stream
        .set_read_timeout(None)
        .map_err(|e| ClusterError::network(format!("connection from {from}"), e))?;
    mesh.hellos[p] = theirs;
    *slot(mesh, theirs.channel, p) = Some(stream);
    Ok(Ok(()))
}

/// Judges what every process reads and asks for, from their hellos (every process has
/// them all, so every process judges alike): the lowest process that differs from
/// process 0.
///
/// # Errors
/// [`ClusterError::Shards`], [`ClusterError::Mismatch`] and [`ClusterError::Differ`].
pub(crate) fn judge(hellos: &[Hello]) -> Result<(), ClusterError> {
    let zero = &hellos[0];
    for (process, h) in hellos.iter().enumerate() {
        if h.shards != zero.shards {
            return Err(ClusterError::Shards { process, process_0: zero.shards });
        }
        if !zero.reads.admits(h.reads, process == 0) {
            return Err(ClusterError::Mismatch { process_0: zero.reads, process, reads: h.reads });
        }
        if zero.digest != 0 && h.digest != 0 && zero.digest != h.digest {
            return Err(ClusterError::Differ { first: 0, second: process, reads: zero.reads });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello() -> Hello {
        Hello {
            protocol: PROTOCOL,
            channel: BEAT,
            shards: true,
            reads: Reads::Binary { vertices: 4, arcs: 5 },
            process: 2,
            processes: 3,
            workers: 2,
            hosts: 77,
            query: 5,
            digest: 0,
        }
    }

    #[test]
    fn a_hello_survives_its_bytes_and_garbage_is_no_hello() {
        let h = hello();
        assert_eq!(Hello::decode(&h.encode()), Some(h));
        let sent = Hello { reads: Reads::SentByProcess0, digest: 9, ..h };
        assert_eq!(Hello::decode(&sent.encode()), Some(sent));
        assert_eq!(Hello::decode(&[b'x'; HELLO_LEN]), None);
        let mut b = [0xffu8; HELLO_LEN];
        b[..8].copy_from_slice(&MAGIC);
        assert!(Hello::decode(&b).is_some_and(|h| h.protocol == u32::MAX));
    }

    #[test]
    fn peers_set_up_differently_disagree() {
        let h = hello();
        assert_eq!(h.disagreement(&h), None);
        let w = Hello { workers: 1, ..h };
        assert_eq!(h.disagreement(&w), Some(Disagreement::Workers { this: 2, peer: 1 }));
        assert_eq!(h.disagreement(&Hello { hosts: 1, ..h }), Some(Disagreement::Hosts));
        assert_eq!(h.disagreement(&Hello { query: 6, ..h }), Some(Disagreement::Query));
        assert_ne!(
            query_digest("start=Some(1) all=false"),
            query_digest("start=Some(2) all=false")
        );
        let e = ClusterError::Disagree {
            process: 1,
            this: 0,
            what: Disagreement::Workers { this: 1, peer: 2 },
        };
        assert_eq!(
            e.to_string(),
            "processes 1 and 0 have different numbers of workers (2 and 1): every process \
             must have the same"
        );
    }

    #[test]
    fn the_lowest_process_that_differs_is_named() {
        let h = hello();
        let zero = Hello { process: 0, ..h };
        assert!(judge(&[zero, h, h]).is_ok());
        let other = Hello { shards: false, ..h };
        assert!(matches!(
            judge(&[zero, h, other]),
            Err(ClusterError::Shards { process: 2, process_0: true })
        ));
        let small = Hello { reads: Reads::Binary { vertices: 3, arcs: 5 }, ..h };
        assert!(matches!(judge(&[zero, small, h]), Err(ClusterError::Mismatch { process: 1, .. })));
        let (a, b) = (Hello { digest: 1, ..zero }, Hello { digest: 2, ..h });
        assert!(matches!(judge(&[a, b]), Err(ClusterError::Differ { first: 0, second: 1, .. })));
    }
}
