// A fake Efí of the tests' own: just enough of Efí's Pix API (token, send, status, the paged
// statement) to drive the adapter through each path, with knobs for what a test wants Efí to do
// next. Not the sandbox: the point is what the adapter asks and how it reads answers it cannot choose.

export interface FakeEfiKnobs {
  /** Seconds of token lifetime the fake grants. */
  tokenLifetimeSeconds: number;
  /** Answer the next N API calls 401 whatever the token (a token revoked early). */
  refuseNextCalls: number;
  /** Refuse the token endpoint (wrong client credentials). */
  refuseTokens: boolean;
  /** Never answer sends (the adapter must time out). */
  hangSends: boolean;
  /** Never answer token requests, or status calls (the adapter must time out). */
  hangTokens: boolean;
  hangStatus: boolean;
  /** What a status call for an unknown idEnvio answers: Efí's body, or a gateway's page. */
  notFound: "efi" | "gateway";
  /** Statement pages (`GET /v2/gn/pix/enviados`) answered 503 from this page on (null: none). */
  failListFromPage: number | null;
  /** The next N status calls answer Efí's not-found even for a held payment (a read that lags). */
  lagStatusReads: number;
  /** A repeat send of a held idEnvio is refused `422 pagamento_negado` (a refusal of the repeat, not of the Pix). */
  refuseRepeats: boolean;
}

interface Held {
  idEnvio: string;
  valor: string;
  endToEndId: string;
  status: "EM_PROCESSAMENTO" | "REALIZADO";
  devolucoes?: Record<string, unknown>[];
}

export class FakeEfi {
  readonly knobs: FakeEfiKnobs = {
    tokenLifetimeSeconds: 3600,
    refuseNextCalls: 0,
    refuseTokens: false,
    hangSends: false,
    hangTokens: false,
    hangStatus: false,
    notFound: "efi",
    failListFromPage: null,
    lagStatusReads: 0,
    refuseRepeats: false,
  };
  readonly held = new Map<string, Held>();
  readonly requests: { method: string; path: string; authorization: string | null }[] = [];
  tokensIssued = 0;
  private readonly validTokens = new Set<string>();

  readonly fetcher = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/efi/, "");
    this.requests.push({ method: request.method, path, authorization: request.headers.get("authorization") });
    if (request.method === "POST" && path === "/oauth/token") return this.token(request);
    const bearer = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (this.knobs.refuseNextCalls > 0 || !this.validTokens.has(bearer)) {
      this.knobs.refuseNextCalls = Math.max(0, this.knobs.refuseNextCalls - 1);
      return Response.json({ nome: "nao_autorizado", mensagem: "token inválido" }, { status: 401 });
    }
    const send = /^\/v3\/gn\/pix\/([A-Za-z0-9]{1,35})$/.exec(path);
    if (request.method === "PUT" && send?.[1] !== undefined) return this.send(send[1], request);
    const status = /^\/v2\/gn\/pix\/enviados\/id-envio\/([A-Za-z0-9]{1,35})$/.exec(path);
    if (request.method === "GET" && status?.[1] !== undefined) return this.status(status[1]);
    if (request.method === "GET" && path === "/v2/gn/pix/enviados") return this.list(url.searchParams);
    return new Response("<html>404 Not Found</html>", { status: 404, headers: { "content-type": "text/html" } });
  };

  /** Revokes every token issued so far (Efí rotated them): the next call gets a 401. */
  revokeTokens(): void {
    this.validTokens.clear();
  }

  settle(idEnvio: string): void {
    const held = this.held.get(idEnvio);
    if (held) held.status = "REALIZADO";
  }

  /** Efí's statement: every held payment, `paginacao.itensPorPagina` at a time. */
  private list(params: URLSearchParams): Response {
    const page = Number(params.get("paginacao.paginaAtual") ?? "0");
    const perPage = Number(params.get("paginacao.itensPorPagina") ?? "100");
    if (this.knobs.failListFromPage !== null && page >= this.knobs.failListFromPage) {
      return Response.json({ nome: "erro_aplicacao", mensagem: "indisponível" }, { status: 503 });
    }
    const all = [...this.held.values()];
    return Response.json({
      parametros: {
        inicio: params.get("inicio"),
        fim: params.get("fim"),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: perPage,
          quantidadeDePaginas: Math.ceil(all.length / perPage),
          quantidadeTotalDeItens: all.length,
        },
      },
      pix: all.slice(page * perPage, (page + 1) * perPage).map((held) => ({
        idEnvio: held.idEnvio,
        endToEndId: held.endToEndId,
        valor: held.valor,
        status: held.status,
        horario: { solicitacao: "2026-12-01T06:14:00Z" },
        ...(held.devolucoes === undefined ? {} : { devolucoes: held.devolucoes, devolucaoPresente: held.devolucoes.length > 0 }),
      })),
    });
  }

  private async token(request: Request): Promise<Response> {
    if (this.knobs.hangTokens) return new Promise<Response>(() => {});
    const body = (await request.json()) as { grant_type?: string };
    if (
      this.knobs.refuseTokens ||
      body.grant_type !== "client_credentials" ||
      !request.headers.get("authorization")?.startsWith("Basic ")
    ) {
      return Response.json({ error: "invalid_client" }, { status: 401 });
    }
    this.tokensIssued += 1;
    const accessToken = `token-${this.tokensIssued}`;
    this.validTokens.add(accessToken);
    return Response.json({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: this.knobs.tokenLifetimeSeconds,
      scope: "pix.send",
    });
  }

  private async send(idEnvio: string, request: Request): Promise<Response> {
    if (this.knobs.hangSends) return new Promise<Response>(() => {});
    if (this.held.has(idEnvio) && this.knobs.refuseRepeats)
      return Response.json({ nome: "pagamento_negado", mensagem: "negado" }, { status: 422 });
    if (this.held.has(idEnvio)) return Response.json({ nome: "id_envio_duplicado", mensagem: "já utilizado" }, { status: 409 });
    const body = (await request.json()) as { valor: string };
    const held: Held = {
      idEnvio,
      valor: body.valor,
      endToEndId: `E09089356202612010614${idEnvio.slice(0, 11)}`,
      status: "EM_PROCESSAMENTO",
    };
    this.held.set(idEnvio, held);
    return Response.json(
      { idEnvio, e2eId: held.endToEndId, valor: held.valor, horario: { solicitacao: new Date().toISOString() }, status: held.status },
      { status: 201 },
    );
  }

  private status(idEnvio: string): Response | Promise<Response> {
    if (this.knobs.hangStatus) return new Promise<Response>(() => {});
    const lagging = this.knobs.lagStatusReads > 0;
    this.knobs.lagStatusReads = Math.max(0, this.knobs.lagStatusReads - 1);
    const held = lagging ? undefined : this.held.get(idEnvio);
    if (held === undefined) {
      if (this.knobs.notFound === "gateway") return new Response("<html>Bad route</html>", { status: 404 });
      return Response.json(
        { type: "https://pix.bcb.gov.br/api/v2/error/PixEnviadoNaoEncontrado", title: "Não encontrado", status: 404 },
        { status: 404 },
      );
    }
    return Response.json({
      idEnvio,
      endToEndId: held.endToEndId,
      valor: held.valor,
      status: held.status,
      horario: { solicitacao: "2026-12-01T06:14:00Z" },
    });
  }
}
