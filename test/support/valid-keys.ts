// Pix keys known to be valid, of every type, each with how it is stored once normalised. The
// documents come from published examples (Receita Federal's alphanumeric CNPJ) or were checked
// with an independent implementation, not with the code under test, so any test may trust them:
// the key parser's own tests and the API fuzzer's valid bodies draw from this one list.
import type { PixKeyType } from "../../src/lib/ids.ts";

export type ValidKey = [type: PixKeyType, input: string, stored: string];

export const knownValidKeys: ValidKey[] = [
  ["cpf", "100.000.001-08", "10000000108"],
  ["cpf", "10000000108", "10000000108"],
  ["cpf", "529.982.247-25", "52998224725"],
  ["cpf", "111.444.777-35", "11144477735"],
  ["cpf", "123.456.789-09", "12345678909"],
  ["cpf", "  12345678909 ", "12345678909"],
  ["cnpj", "11.222.333/0001-81", "11222333000181"],
  ["cnpj", "11222333000181", "11222333000181"],
  ["cnpj", "00.000.000/0001-91", "00000000000191"],
  ["cnpj", "12.ABC.345/01DE-35", "12ABC34501DE35"],
  ["cnpj", "12.abc.345/01de-35", "12ABC34501DE35"],
  ["cnpj", "K9P34Y6N3WD268", "K9P34Y6N3WD268"],
  ["cnpj", "5RQ4F5ZR37E361", "5RQ4F5ZR37E361"],
  ["cnpj", "ZB6CN6Z43DVY04", "ZB6CN6Z43DVY04"],
  ["email", "Fulano.Silva@Example.COM", "fulano.silva@example.com"],
  ["email", "reject@sandbox.test", "reject@sandbox.test"],
  ["email", "user+tag@sub.example.com.br", "user+tag@sub.example.com.br"],
  ["email", " a@b.co ", "a@b.co"],
  ["phone", "+5511987654321", "+5511987654321"],
  ["phone", "+5561988887777", "+5561988887777"],
  ["phone", "+551133334444", "+551133334444"],
  ["evp", "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
  ["evp", "123E4567-E89B-12D3-A456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
];
