//! What every request passes first: the `Host` and `Origin` checks, cross-origin headers
//! for allowed origins, and JSON errors for paths and methods that have no route.

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

use crate::Config;
use crate::api::error;

/// `router` behind the checks, with JSON answers for what it does not route.
pub(crate) fn layer(router: Router, config: Arc<Config>) -> Router {
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(config, check))
}

async fn not_found(uri: Uri) -> Response {
    error(StatusCode::NOT_FOUND, &format!("no page {}", crate::api::short(uri.path())))
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let allowed = if uri.path().starts_with("/api/") { "POST" } else { "GET" };
    let mut response = error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("{method} is not allowed on {}: use {allowed}", crate::api::short(uri.path())),
    );
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allowed));
    response
}

/// Refuses requests for another host name and cross-origin API calls; answers the
/// preflight of allowed origins and marks their answers.
async fn check(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host =
        headers.get(header::HOST).map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    if let Some(host) = &host
        && !host_allowed(host, &config.allowed_hosts)
    {
        return error(
            StatusCode::FORBIDDEN,
            &format!(
                "the host name `{}` is not this server's: open the page by its IP address or \
                 localhost (or start the server with --allow-host NAME)",
                crate::api::short(host)
            ),
        );
    }
    let api = request.uri().path().starts_with("/api/");
    let origin = headers.get(header::ORIGIN).cloned();
    let mut cross = None;
    if let Some(origin) = origin {
        let text = String::from_utf8_lossy(origin.as_bytes()).into_owned();
        let same = host.as_deref().is_some_and(|h| text == format!("http://{h}"));
        if !same {
            if origin_allowed(&text, &config.allowed_origins) {
                cross = Some(origin);
            } else if api || request.method() != Method::GET {
                return error(
                    StatusCode::FORBIDDEN,
                    &format!(
                        "requests from another page ({}) are refused (start the server with \
                         --allow-origin {0} to allow them)",
                        crate::api::short(&text)
                    ),
                );
            }
        }
    }
    if request.method() == Method::OPTIONS
        && api
        && let Some(origin) = cross
    {
        let mut response = StatusCode::NO_CONTENT.into_response();
        let h = response.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("POST"));
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("content-type"));
        h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
        h.insert(header::VARY, HeaderValue::from_static("origin"));
        return response;
    }
    let mut response = next.run(request).await;
    if let Some(origin) = cross {
        response.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        response.headers_mut().insert(header::VARY, HeaderValue::from_static("origin"));
    }
    response
}

/// Whether `host` (a `Host` header: a name or address, then perhaps `:PORT`) names this
/// server: an IP address, `localhost`, or a name of `allowed`. A DNS name that a page
/// elsewhere controls is none of these.
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, port)) if port.is_empty() || port.strip_prefix(':').is_some_and(is_port) => {
                v6
            }
            _ => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if is_port(port) => name,
            _ => host,
        }
    };
    name.parse::<IpAddr>().is_ok()
        || name.eq_ignore_ascii_case("localhost")
        || allowed.iter().any(|a| a.eq_ignore_ascii_case(name))
}

fn is_port(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    allowed.iter().any(|a| a == "*" || a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_other_than_addresses_and_localhost_are_refused() {
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:8080",
            "[::1]",
            "localhost:80",
            "LOCALHOST",
            "10.1.2.3:9",
        ] {
            assert!(host_allowed(ok, &[]), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1.evil.example",
            "[::1",
            "localhost.:80",
            "",
        ] {
            assert!(!host_allowed(bad, &[]), "{bad}");
        }
        assert!(host_allowed("box.lan:8080", &["box.lan".to_owned()]));
    }

    #[test]
    fn origins_are_allowed_by_name_or_all() {
        assert!(origin_allowed("https://a.example", &["https://a.example/".to_owned()]));
        assert!(!origin_allowed("https://b.example", &["https://a.example".to_owned()]));
        assert!(origin_allowed("https://b.example", &["*".to_owned()]));
    }
}
