/**
 * The conformance client's stand-in for the model's choices: which tools to call with what. The
 * suite names the calls of some scenarios in MCP_CONFORMANCE_CONTEXT (`toolCalls`), and one
 * scenario's tool asks for something only the host has: `json-schema-2020-12-preservation` wants
 * the input schema the host gives Claude for its other tool echoed back verbatim, so the suite can
 * see which JSON Schema keywords survived the host's catalogue.
 */
import { toolRouteEntries } from '../../src/conversation/tool-routes';
import type { ToolCatalog } from '../../src/conversation/types';

/** One call: an MCP tool name and its arguments. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The calls the suite names in its context (`toolCalls: [{name, arguments}]`), or undefined when it names none. */
export function contextToolCalls(context: Record<string, unknown>): PlannedCall[] | undefined {
  if (!Array.isArray(context.toolCalls)) return undefined;
  return (context.toolCalls as unknown[]).flatMap((call) =>
    isRecord(call) && typeof call.name === 'string' ? [{ name: call.name, arguments: isRecord(call.arguments) ? call.arguments : {} }] : [],
  );
}

/** Arguments `scenario`'s tool `tool` needs from the host itself; undefined: derive them from its schema. */
export function scenarioArguments(scenario: string, tool: string, catalog: ToolCatalog): Record<string, unknown> | undefined {
  if (scenario !== 'json-schema-2020-12-preservation' || tool !== 'json_schema_echo') return undefined;
  // The schema exactly as Claude gets it (`input_schema`), not as the server sent it.
  const focal = toolRouteEntries(catalog).find(([, route]) => route.name === 'json_schema_2020_12_tool')?.[0];
  const schema = catalog.tools.find((offered) => offered.name === focal)?.input_schema;
  return schema === undefined ? undefined : { schema };
}
