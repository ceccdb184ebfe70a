export * from './room-desk';
export * from './room.errors';
export { defineRoomCommands, roomKeys } from './room-commands';
