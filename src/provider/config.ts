// The provider's configuration error: the saga cannot pick an adapter (src/config/ lists why).
export class ProviderConfigError extends Error {
  override readonly name = "ProviderConfigError";
}
